// The console in a real terminal (tmux): a real SDK client drives server-everything through spies
// writing into a sessions directory while `mcp-spy ui` runs; keys are sent and the screen is read.
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { sessionFileName } from '../../src/record/sessions-dir.js';
import { bin, everythingServer, node, recordSession, tempDir } from '../helpers/spy.js';
import { startTerminal } from '../helpers/tmux.js';

const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

/** A spy of a wrapped server, as a client config would start it: its record named in the sessions directory. */
function spiedSession(dir: string, client: string, calls: unknown[]) {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const record = join(dir, sessionFileName({ client, server: 'everything', started: new Date(), pid: process.pid }));
  return recordSession('tools-client.js', record, [node, everythingServer, 'stdio'], { CALLS: JSON.stringify(calls) });
}

describe.each([
  { width: 120, height: 40 },
  { width: 80, height: 24 },
])('mcp-spy ui in a $width x $height terminal', (size) => {
  it('shows a session as it appears, opens a tools/call with its answer, filters, follows, and leaves the terminal as it was', async () => {
    const temp = tempDir('mcp-spy-ui-');
    onTestFinished(temp.remove);
    const sessions = join(temp.dir, 'sessions');
    const state = (name: string) => join(temp.dir, name);
    // The terminal's settings before and after, and the exit status, are written down by the shell around the console.
    const command = `stty -g > ${quote(state('before'))}; printf 'shell before\\n'; MCP_SPY_DIR=${quote(sessions)} ${quote(node)} ${quote(bin)} ui; code=$?; stty -g > ${quote(state('after'))}; echo "EXIT=$code"; exec sleep 600`;
    const terminal = startTerminal(command, size);
    onTestFinished(terminal.kill);

    await terminal.shows(/no sessions yet/);
    expect(terminal.pane('#{alternate_on}')).toBe('1');
    // A session written after the console started appears in the list.
    await spiedSession(sessions, 'fixture-tools-client', [['echo', { message: 'hello from the test' }]]);
    await terminal.shows(/mcp-servers\/every/);
    const list = await terminal.shows(/fixture-tool.*stdio/);
    expect(list.split('\n').every((line) => line.length <= size.width)).toBe(true);

    // The merged stream, narrowed to the echo call: its request and answer only.
    terminal.keys('Enter');
    await terminal.shows(/tools\/call tool=echo/);
    terminal.literal('/tool = "echo"');
    await terminal.shows(/\/tool = "echo"/);
    terminal.keys('Enter');
    const narrowed = await terminal.shows(/filter: tool = "echo"/);
    expect(narrowed.split('\n').filter((line) => / (->|<-) /.test(line))).toHaveLength(2);

    // The answer (under the cursor, following) opens in the inspector; Tab shows its request.
    terminal.keys('Enter');
    await terminal.shows(/\[ANSWER\][\s\S]*"text": "Echo: hello from the test"/);
    terminal.keys('Tab');
    await terminal.shows(/\[REQUEST\][\s\S]*"message": "hello from the test"/);

    // Back to the stream, the filter cleared, following: a second session's frames come in at the bottom.
    terminal.keys('Escape');
    await terminal.shows(/^frames /);
    terminal.keys('/');
    await terminal.shows(/^\/tool = "echo"▏/m);
    terminal.keys('C-u');
    await terminal.shows(/^\/▏/m);
    terminal.keys('Enter');
    await terminal.shows(/^frames · all sessions \(1\) · frame \d+\/\d+ · FOLLOW\n/);
    await spiedSession(sessions, 'second-client', [['get-sum', { a: 2, b: 40 }]]);
    await terminal.shows(/tools\/call tool=get-sum/);

    terminal.keys('q');
    const after = await terminal.shows(/EXIT=0/);
    expect(after).toContain('shell before');
    expect(terminal.pane('#{alternate_on}')).toBe('0');
    expect(terminal.pane('#{cursor_flag}')).toBe('1');
    expect(readFileSync(state('after'), 'utf8')).toBe(readFileSync(state('before'), 'utf8'));
  });
});

describe('mcp-spy ui without a terminal', () => {
  it('says so in one line and exits 2', async () => {
    const { runBin } = await import('../helpers/spy.js');
    const result = await runBin(['ui']);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('mcp-spy: ui needs a terminal (standard input and output are not one); to read a record without one: mcp-spy view FILE\n');
  });
});
