import { render } from 'ink-testing-library';
import { createElement as h } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup } from 'ink-testing-library';
import { App } from '../../src/ui/app.js';
import { reduce } from '../../src/ui/reducer.js';
import { initialState } from '../../src/ui/state.js';
import { memoryLoader, recordWriter, sampleSession, sourceEntries } from '../helpers/ui-records.js';

const file = 'claude-code--my-everything--20261201T170000123Z-4242.jsonl';
const keys = { down: '\u001b[B', up: '\u001b[A', enter: '\r', escape: '\u001b', tab: '\t', backspace: '\u007f' };

afterEach(() => cleanup());

function mount(lines = sampleSession(), size = { width: 100, height: 30 }, effects = {}) {
  const state = reduce(initialState({ load: memoryLoader({ [file]: lines }), ...size }), { type: 'entries', items: sourceEntries(file, lines) });
  const app = render(h(App, { initial: state, color: false, effects }));
  const screen = () => app.lastFrame() ?? '';
  /** Types keys one at a time, as a person does, each read before the next. */
  const type = async (...inputs: string[]) => {
    for (const input of inputs) {
      const before = app.frames.length;
      app.stdin.write(input);
      await vi.waitFor(() => expect(app.frames.length).toBeGreaterThan(before), { timeout: 5000 });
    }
  };
  const shows = (text: string | RegExp) => vi.waitFor(() => expect(screen()).toMatch(text), { timeout: 5000 });
  return { app, screen, type, shows };
}

describe('the sessions list', () => {
  it('shows each session with server and client name and version, revision, transport, frames, errors, last activity and state', () => {
    const { screen } = mount();
    expect(screen()).toMatch(/all sessions, merged\s+10\s+1/);
    expect(screen()).toMatch(/everything 2\.0\.0\s+test-client 1\.0\.0\s+2025-06-18\s+stdio\s+10\s+1\s+17:00:00\.120\s+ended/);
  });

  it("gives a wide terminal's room to the names: a long server name is whole at 120 columns, and each line fits", () => {
    const { screen } = mount(sampleSession('s1', { server: 'mcp-servers/everything-long' }), { width: 120, height: 30 });
    expect(screen()).toMatch(/mcp-servers\/everything-long 2\.0\.0\s+test-client 1\.0\.0\s+2025-06-18/);
    for (const text of screen().split('\n')) expect(text.length).toBeLessThanOrEqual(120);
  });

  it('fits 80 columns', () => {
    const { screen } = mount(undefined, { width: 80, height: 24 });
    for (const text of screen().split('\n')) expect(text.length).toBeLessThanOrEqual(80);
    expect(screen().split('\n')).toHaveLength(24);
  });
});

describe('the frame stream', () => {
  it('lists the frames of the session opened, the cursor on the newest, its pair marked', async () => {
    const { type, screen, shows } = mount();
    await type(keys.down, keys.enter);
    await shows(/frames · everything/);
    expect(screen()).toMatch(/> 17:00:00\.120 \*\* exit\s+code=0/);
    await type('k', 'k');
    expect(screen()).toMatch(/> 17:00:00\.100 <- tool-error\s+tools\/call tool=add #4 700ms/);
    expect(screen()).toMatch(/\* 17:00:00\.090 -> request\s+tools\/call tool=add #4/);
    expect(screen()).toMatch(/<- response\s+#99 !orphan-response/);
  });

  it("narrows to a filter, and shows a bad one's error in place", async () => {
    const { type, screen, shows } = mount();
    await type(keys.enter, '/', ...'tool = ');
    await shows(/\/tool = ▏\s+✗ expected a value after '=' at column 8/);
    await type(...'"echo"', keys.enter);
    await shows(/filter: tool = "echo"/);
    const frames = screen()
      .split('\n')
      .filter((text) => / (->|<-|\*\*) /.test(text));
    expect(frames).toHaveLength(2);
  });
});

describe('the inspector', () => {
  it('offers the request/answer switch on a request or an answer, not on an event', async () => {
    const { type, screen, shows } = mount(undefined, { width: 100, height: 40 });
    await type(keys.down, keys.enter);
    await shows(/> 17:00:00\.120 \*\* exit/);
    await type(keys.enter);
    await shows(/^inspector/m);
    expect(screen()).not.toContain('Tab switches');
    await type(keys.escape, 'k', 'k', keys.enter);
    await shows(/\[request\] \[ANSWER\]\s+\(Tab switches\)/);
  });

  it('shows a tools/call answer as pretty JSON with its exact bytes, its request on Tab, and its linked progress', async () => {
    const { type, screen, shows } = mount(undefined, { width: 100, height: 60 });
    await type(keys.enter, 'g', ...'jjjjjjj', keys.enter);
    await shows(/\[request\] \[ANSWER\]/);
    expect(screen()).toContain('response tools/call tool=echo #3  seq 8');
    expect(screen()).toContain('"text": "Echo: hello"');
    expect(screen()).toMatch(/exact bytes \(\d+ B\):\n\{"jsonrpc":"2.0","id":3,"result"/);
    expect(screen()).toMatch(/linked:\n\s+17:00:00\.070 notifications\/progress \(seq 7\)/);
    await type(keys.tab);
    await shows(/\[REQUEST\] \[answer\]/);
    expect(screen()).toContain('"message": "hello"');
  });

  it("shows notes with their rule's words", async () => {
    const { type, shows } = mount(undefined, { width: 100, height: 40 });
    await type(keys.enter, 'k', keys.enter);
    await shows(/orphan-response: a response to no request seen in this session/);
  });

  it('shows the HTTP status and headers of the exchange that carried a frame', async () => {
    const w = recordWriter('h1');
    w.event({ kind: 'http', transport: 'http', listen: 'http://127.0.0.1:1/mcp', target: 'http://127.0.0.1:2/mcp' });
    w.frame('c2s', 'request', { method: 'ping', id: 1, exchange: 1, headers: { 'mcp-protocol-version': '2025-06-18' } }, { id: 1, method: 'ping' });
    w.event({
      kind: 'http',
      exchange: 1,
      httpMethod: 'POST',
      path: '/mcp',
      status: 200,
      headers: { request: { accept: 'application/json' }, response: { 'content-type': 'application/json' } },
    });
    const { type, screen, shows } = mount(w.lines, { width: 100, height: 40 });
    await type(keys.enter, 'k', keys.enter);
    await shows(/HTTP POST \/mcp 200/);
    expect(screen()).toContain('mcp-protocol-version: 2025-06-18');
    expect(screen()).toContain('content-type: application/json');
  });
});

describe('the tools summary', () => {
  it("shows calls, errors, p50/p95 and the bytes of each tool's definition and results", async () => {
    const { type, screen, shows } = mount();
    await type(keys.tab, keys.tab);
    await shows(/tools · all sessions/);
    const definition = Buffer.byteLength(JSON.stringify({ name: 'echo', description: 'Echoes', inputSchema: { type: 'object' } }));
    const result = Buffer.byteLength(JSON.stringify({ jsonrpc: '2.0', id: 3, result: { content: [{ type: 'text', text: 'Echo: hello' }] } }));
    expect(screen()).toMatch(new RegExp(`echo\\s+1\\s+0\\s+120ms\\s+120ms\\s+${definition} B\\s+${result} B\\s+${result} B`));
    expect(screen()).toMatch(/add\s+1\s+1\s+700ms\s+700ms/);
  });
});

describe('hostile strings from the wire', () => {
  it('never reach the terminal raw: escapes, bidi overrides and 10 KB method names are escaped and cut', async () => {
    const w = recordWriter('x');
    const evil = `\u001b[2J\u001b]52;c;ZXZpbA==\u0007evil\u202egnp.exe${'m'.repeat(10_000)}`;
    w.frame('c2s', 'request', { method: evil, id: 1, tool: '\u001b[31mred' }, { id: 1, method: evil });
    w.frame('s2c', 'response', { method: evil, id: 1, related: { seq: 1, id: 1, method: evil } }, { id: 1, result: { serverInfo: { name: '\u009b31m' } } });
    const { app, type, shows } = mount(w.lines, { width: 100, height: 40 });
    await type(keys.enter, keys.enter);
    await shows(/\\u001b\[2J\\u001b\]52;c;ZXZpbA==\\u0007evil\\u202egnp\.exe/);
    const all = app.frames.join('');
    expect(all).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
    expect(all).not.toContain('m'.repeat(400));
  });
});

describe('help', () => {
  it('lists every key', async () => {
    const { type, screen, shows } = mount(undefined, { width: 100, height: 40 });
    await type('?');
    await shows(/keys \(Esc or \? to go back\)/);
    for (const key of ['j k', 'g G', 'PgUp PgDn', 'Enter', 'Esc', '/', 'n N', 'f', 'p', 'Tab', 'y', 'e', 'H', '?', 'q', 'Ctrl-Z'])
      expect(screen()).toContain(`  ${key}`);
  });
});
