import { describe, expect, it } from 'vitest';
import type { TestEntry } from '../helpers/spy.js';
import { renderLine } from '../../src/render/render-line.js';
import { boundedJson } from '../../src/render/bounded-json.js';
import { sanitize, truncate, visibleText } from '../../src/render/sanitize.js';
import { wantsColor } from '../../src/cli/options.js';

const base = { v: 1, seq: 1, t: '2026-11-29T10:20:30.456Z', session: 's' };
const frame = (fields: Partial<TestEntry>): TestEntry => ({ ...base, kind: 'request', dir: 'c2s', ...fields }) as TestEntry;

describe('renderLine', () => {
  it.each([
    [
      'a tool call',
      frame({
        method: 'tools/call',
        id: 2,
        tool: 'search',
        msg: { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'search', arguments: { q: 'x' } } },
      }),
      '10:20:30.456 -> request     tools/call #2 tool=search {"arguments":{"q":"x"}}',
    ],
    [
      'a tool error with its text',
      frame({
        dir: 's2c',
        kind: 'tool-error',
        method: 'tools/call',
        id: 2,
        tool: 'search',
        latencyMs: 12.5,
        msg: { jsonrpc: '2.0', id: 2, result: { content: [{ type: 'text', text: 'boom' }], isError: true } },
      }),
      '10:20:30.456 <- tool-error  tools/call #2 tool=search 12.5ms "boom"',
    ],
    [
      'a protocol error with the name of its code',
      frame({
        dir: 's2c',
        kind: 'protocol-error',
        method: 'tools/fly',
        id: 'a',
        error: { code: -32601, message: 'Method not found' },
        errorName: 'Method not found',
        msg: {},
      }),
      '10:20:30.456 <- proto-error tools/fly #"a" -32601 Method not found',
    ],
    [
      'stdout noise',
      frame({ dir: 's2c', kind: 'invalid', notes: ['stdout-noise', 'not-json'], raw: 'Server ready' }),
      '10:20:30.456 <- INVALID     !stdout-noise,not-json Server ready',
    ],
    [
      'bytes that are not UTF-8',
      frame({ dir: 's2c', kind: 'invalid', notes: ['not-utf8'], rawBase64: '/w==', bytes: 1 }),
      '10:20:30.456 <- INVALID     !not-utf8 <1 bytes, not UTF-8>',
    ],
    [
      'a spawn event',
      { ...base, kind: 'spawn', command: ['node', 'server.js'], pid: 42 } as TestEntry,
      '10:20:30.456 ** spawn       node server.js pid=42 session=s',
    ],
    ['an exit by signal', { ...base, kind: 'exit', code: null, signal: 'SIGTERM' } as TestEntry, '10:20:30.456 ** exit        signal=SIGTERM'],
    ['a stderr line', { ...base, kind: 'stderr', raw: 'warn: x' } as TestEntry, '10:20:30.456 ~~ stderr      warn: x'],
  ])('%s', (_name, entry, expected) => {
    expect(renderLine(entry)).toBe(expected);
  });

  it('never throws on entries of the wrong shape', () => {
    for (const odd of [
      {},
      { kind: 5 },
      { kind: 'request', dir: 'c2s', raw: '{not json' },
      { kind: 'mystery', t: 'x' },
      { kind: 'unanswered', requests: 'no' },
    ]) {
      expect(() => renderLine(odd as unknown as TestEntry)).not.toThrow();
    }
  });

  it('cuts long previews', () => {
    const line = renderLine(frame({ kind: 'invalid', raw: 'x'.repeat(500) }), { preview: 10 });
    expect(line.endsWith(' xxxxxxxxxx…')).toBe(true);
  });

  it('renders the same with the parsed message handed in as without', () => {
    const message = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 't', arguments: { big: 'y'.repeat(5000), list: [1, 'a\n', null] } } };
    const entry = frame({ method: 'tools/call', id: 1, tool: 't', msg: message });
    expect(renderLine(entry, { message })).toBe(renderLine(entry));
    expect(renderLine(entry).length).toBeLessThan(400);
  });

  it('colours only when asked', () => {
    const entry = frame({ method: 'ping', id: 1, msg: {} });
    expect(renderLine(entry, { color: true })).toContain('\u001b[');
    expect(renderLine(entry, { color: false })).not.toContain('\u001b[');
  });
});

describe('sanitize and truncate', () => {
  it('makes control characters visible', () => {
    expect(sanitize('a\u001b[31mb\u0007\n\u202e')).toBe('a\\u001b[31mb\\u0007\\n\\u202e');
    expect(truncate('abcdef', 3)).toBe('abc…');
    expect(truncate('abc', 3)).toBe('abc');
  });

  it('makes them visible for a page, keeping its tabs and line breaks', () => {
    expect(visibleText('evil\u202etxt.exe\u2066 \u001b[31m\u009b\u0000\t\n\r')).toBe('evil\\u202etxt.exe\\u2066 \\u001b[31m\\u009b\\u0000\t\n\r');
  });
});

describe('wantsColor', () => {
  it.each([
    [undefined, {}, true, true],
    [undefined, {}, false, false],
    [false, {}, true, false],
    [undefined, { NO_COLOR: '1' }, true, false],
    [undefined, { NO_COLOR: '1', FORCE_COLOR: '1' }, false, false],
    [undefined, { FORCE_COLOR: '1' }, false, true],
    [undefined, { FORCE_COLOR: '0' }, true, false],
  ])('flag %s env %j tty %s -> %s', (flag, env, tty, expected) => {
    expect(wantsColor(flag, env, tty)).toBe(expected);
  });
});

describe('boundedJson', () => {
  const values: unknown[] = [
    { a: 1, b: [true, null, 'x'], c: { d: 'é\u0001"\\' } },
    ['z'.repeat(1000), { k: 'v' }],
    'plain',
    42,
    null,
    { nested: { deeper: { deepest: Array.from({ length: 100 }, (_, index) => index) } } },
  ];
  it.each([5, 20, 64, 10_000])('gives the start of JSON.stringify, cut at %i characters', (max) => {
    for (const value of values) {
      const full = JSON.stringify(value);
      const cut = boundedJson(value, max);
      if (full.length <= max) expect(cut).toBe(full);
      else expect(cut).toBe(`${full.slice(0, max)}…`);
    }
  });

  it('leaves out the top-level keys it is told to, and only those', () => {
    const value = JSON.parse('{"_meta":{"progressToken":1},"name":"echo","__proto__":{"x":1},"arguments":{"_meta":2,"name":"kept"}}');
    const { _meta, name, ...rest } = value;
    expect(boundedJson(value, 10_000, new Set(['_meta', 'name']))).toBe(JSON.stringify(rest));
    expect(boundedJson(value, 20, new Set(['_meta', 'name']))).toBe(`${JSON.stringify(rest).slice(0, 20)}…`);
  });
});

describe('the preview of a frame', () => {
  const request = (params: unknown) => ({ jsonrpc: '2.0', id: 1, method: 'tools/call', params });
  it("shows a request's params without _meta and without the tool the line names", () => {
    const line = renderLine(frame({ method: 'tools/call', id: 1, tool: 'echo' }), {
      message: request({ name: 'echo', _meta: { progressToken: 'p' }, arguments: { text: 'hi' } }),
    });
    expect(line.endsWith(' tool=echo {"arguments":{"text":"hi"}}')).toBe(true);
  });
  it('shows nothing for params that hold only what the line says', () => {
    const line = renderLine(frame({ method: 'tools/call', id: 1, tool: 'echo' }), { message: request({ name: 'echo', _meta: {} }) });
    expect(line.endsWith(' tool=echo')).toBe(true);
  });
  it('keeps a name the line does not show (no tool known)', () => {
    const line = renderLine(frame({ method: 'prompts/list', id: 1 }), {
      message: { jsonrpc: '2.0', id: 1, method: 'prompts/list', params: { name: 'x', _meta: {} } },
    });
    expect(line.endsWith(' {"name":"x"}')).toBe(true);
  });
});
