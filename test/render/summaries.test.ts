import { describe, expect, it } from 'vitest';
import type { TestEntry } from '../helpers/spy.js';
import type { FrameEntry } from '../../src/record/schema.js';
import { renderLine } from '../../src/render/render-line.js';

const base = { v: 1, seq: 1, t: '2026-11-29T10:20:30.456Z', session: 's' };
const frame = (dir: 'c2s' | 's2c', kind: string, method: string, message: object): TestEntry =>
  kind === 'notification'
    ? ({ ...base, dir, kind, method, msg: { jsonrpc: '2.0', ...message } } as TestEntry)
    : ({ ...base, dir, kind, method, id: 1, msg: { jsonrpc: '2.0', id: 1, ...message } } as TestEntry);
const tail = (entry: TestEntry, width?: number) => renderLine(entry, { width }).slice(28);

describe('previews per method', () => {
  it.each([
    [
      'initialize request',
      frame('c2s', 'request', 'initialize', {
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', clientInfo: { name: 'c', version: '1' }, capabilities: { roots: {}, sampling: {} } },
      }),
      'initialize #1 client=c 1 caps=roots,sampling',
    ],
    [
      'initialize response',
      frame('s2c', 'response', 'initialize', { result: { protocolVersion: '2025-06-18', serverInfo: { name: 's', version: '2.0' }, capabilities: {} } }),
      'initialize #1 server=s 2.0 rev=2025-06-18 caps=none',
    ],
    [
      'tools/list',
      frame('s2c', 'response', 'tools/list', { result: { tools: [{ name: 'a', inputSchema: {} }, { name: 'b' }] } }),
      'tools/list #1 2 tools: a, b',
    ],
    [
      'tools/call result',
      frame('s2c', 'response', 'tools/call', {
        result: {
          content: [
            { type: 'text', text: 'hi' },
            { type: 'image', mimeType: 'image/png', data: 'AAAA' },
          ],
        },
      }),
      'tools/call #1 "hi" <image image/png>',
    ],
    ['tool error', frame('s2c', 'tool-error', 'tools/call', { result: { content: [{ type: 'text', text: 'no' }], isError: true } }), 'tools/call #1 "no"'],
    [
      'resources/read',
      frame('s2c', 'response', 'resources/read', { result: { contents: [{ uri: 'file:///a', mimeType: 'text/plain', text: 'abc' }] } }),
      'resources/read #1 1 content: file:///a text/plain 3 chars',
    ],
    [
      'prompts/get',
      frame('s2c', 'response', 'prompts/get', { result: { messages: [{ role: 'user', content: { type: 'text', text: 'q' } }] } }),
      'prompts/get #1 1 message, first user: "q"',
    ],
    [
      'progress',
      frame('s2c', 'notification', 'notifications/progress', {
        method: 'notifications/progress',
        params: { progressToken: 1, progress: 1, total: 2, message: 'half' },
      }),
      'notifications/progress 1/2 "half"',
    ],
    [
      'log message',
      frame('s2c', 'notification', 'notifications/message', { method: 'notifications/message', params: { level: 'info', logger: 'l', data: { a: 1 } } }),
      'notifications/message info l: {"a":1}',
    ],
  ])('%s', (_name, entry, expected) => {
    expect(tail(entry)).toBe(expected);
  });

  it('lists what fits and counts the rest', () => {
    const tools = Array.from({ length: 40 }, (_, index) => ({ name: `tool-${index}` }));
    const line = renderLine(frame('s2c', 'response', 'tools/list', { result: { tools } }), { width: 80 });
    expect(line.length).toBeLessThanOrEqual(80);
    expect(line).toMatch(/40 tools: tool-0, tool-1(, tool-\d+)* \+\d+ more$/);
  });

  it('a first name too long to fit is cut with all the room there is: a wider line never shows less of it', () => {
    // Seen on a terminal of 80 columns: a latency of "1ms" instead of "0.7ms" left two more columns,
    // and the name shrank from "demo://resou…" to "demo:/… +6 more".
    const resources = Array.from({ length: 7 }, (_, index) => ({ uri: `demo://resource/static/document/${index}.md`, name: `r${index}` }));
    const entry = frame('s2c', 'response', 'resources/list', { result: { resources } });
    let shown = 0;
    for (let width = 50; width <= 90; width++) {
      const line = renderLine(entry, { width });
      expect(line.length, line).toBeLessThanOrEqual(width);
      const name = /7 resources: (demo:[^ ]*)/.exec(line)?.[1] ?? '';
      expect(name.length, line).toBeGreaterThanOrEqual(shown);
      shown = name.length;
      if (name.endsWith('…')) expect(line, 'the count of all already says how many').not.toMatch(/ \+\d+ more$/);
    }
    expect(shown).toBeGreaterThan(20);
  });

  it('leaves "…" alone when a narrow terminal has no room for a preview', () => {
    const entry = frame('s2c', 'response', 'tools/list', { result: { tools: [{ name: 'a' }] } });
    expect(renderLine(entry, { width: 45 })).toBe('10:20:30.456 <- response    tools/list #1 …');
    // Narrower than the line itself: whole parts give way to "…", the line never wraps.
    expect(renderLine(frame('s2c', 'response', 'ping', { result: {} }), { width: 30 })).toBe('10:20:30.456 <- response    …');
  });

  it('never throws on odd shapes, and falls back to the JSON', () => {
    const odd = [
      null,
      5,
      'x',
      [],
      { tools: 'no' },
      { tools: [null, 3, { name: 7 }] },
      { content: [null] },
      { contents: {} },
      { messages: [5] },
      { serverInfo: 3, capabilities: [] },
    ];
    for (const method of [
      'initialize',
      'tools/list',
      'tools/call',
      'resources/read',
      'prompts/get',
      'notifications/progress',
      'notifications/message',
      'constructor',
      '__proto__',
    ]) {
      for (const body of odd) {
        expect(() => renderLine(frame('s2c', 'response', method, { result: body }), { width: 60 })).not.toThrow();
        expect(() => renderLine(frame('c2s', 'request', method, { method, params: body }))).not.toThrow();
      }
    }
    expect(tail(frame('s2c', 'response', 'tools/list', { result: { tools: 'no' } }))).toBe('tools/list #1 {"tools":"no"}');
  });
});

describe('events and marks', () => {
  it('shows why a server never started, and what the spy answered itself', () => {
    expect(renderLine({ ...base, kind: 'exit', code: null, signal: null, reason: 'cannot start x: command not found (ENOENT)' } as TestEntry)).toBe(
      '10:20:30.456 ** exit        code=null (cannot start x: command not found (ENOENT))',
    );
    const bad = frame('s2c', 'protocol-error', 'ping', { error: { code: -32603, message: 'Bad Gateway' } });
    expect(renderLine({ ...(bad as FrameEntry), error: { code: -32603, message: 'Bad Gateway' }, errorName: 'Internal error', origin: 'spy' })).toBe(
      '10:20:30.456 <- proto-error ping #1 -32603 Internal error: Bad Gateway (from mcp-spy)',
    );
  });
});
