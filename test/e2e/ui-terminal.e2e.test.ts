// The console in a real terminal (tmux): a real SDK client drives server-everything through spies
// writing into a sessions directory while `mcp-spy ui` runs; keys are sent and the screen is read.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { bin, everythingServer, fixture, node, runClient, tempDir } from '../helpers/spy.js';
import { startTerminal } from '../helpers/tmux.js';

const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

/** A spy of a wrapped server, started as `mcp-spy wrap` writes it into a client's config: its record goes to the sessions directory. */
function spiedSession(dir: string, client: string, calls: unknown[]) {
  const spy = [node, bin, '--client', client, '--name', 'everything', '-q', '--'];
  return runClient('tools-client.js', ['--', ...spy, node, everythingServer, 'stdio'], { CALLS: JSON.stringify(calls), MCP_SPY_DIR: dir });
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
    // The filter and Enter sent at once (as a paste ending in a newline): typed, then applied.
    terminal.keys('/');
    await terminal.shows(/^\/▏/m);
    terminal.keys('tool = "echo"', 'Enter');
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

/** The console started in a terminal over an empty sessions directory, with the shell noting its exit and the terminal's settings. */
async function startConsole(size = { width: 100, height: 30 }, env = '') {
  const temp = tempDir('mcp-spy-ui-');
  onTestFinished(temp.remove);
  const state = (name: string) => join(temp.dir, name);
  const command = `stty -g > ${quote(state('before'))}; ${env} MCP_SPY_DIR=${quote(join(temp.dir, 'sessions'))} ${quote(node)} ${quote(bin)} ui; code=$?; stty -g > ${quote(state('after'))}; echo "EXIT=$code"; exec sleep 600`;
  const terminal = startTerminal(command, size);
  onTestFinished(terminal.kill);
  await terminal.shows(/no sessions yet/);
  const shell = terminal.pane('#{pane_pid}');
  const pid = Number(readFileSync(`/proc/${shell}/task/${shell}/children`, 'utf8').trim().split(/\s+/)[0]);
  const settings = () => [readFileSync(state('after'), 'utf8'), readFileSync(state('before'), 'utf8')];
  return { terminal, pid, settings };
}

describe.each([
  ['SIGTERM', 143],
  ['SIGHUP', 129],
  ['SIGINT', 130],
] as const)('mcp-spy ui stopped by %s', (signal, code) => {
  it('gives the terminal back: no alternate screen, the cursor shown, the settings as they were', async () => {
    const { terminal, pid, settings } = await startConsole();
    expect(terminal.pane('#{alternate_on}')).toBe('1');
    process.kill(pid, signal);
    await terminal.shows(new RegExp(`EXIT=${code}`));
    expect(terminal.pane('#{alternate_on}')).toBe('0');
    expect(terminal.pane('#{cursor_flag}')).toBe('1');
    const [after, before] = settings();
    expect(after).toBe(before);
  });
});

describe('mcp-spy ui crashing', () => {
  it('gives the terminal back before it says what went wrong', async () => {
    const { terminal, pid, settings } = await startConsole(undefined, `NODE_OPTIONS=--require=${quote(fixture('ui', 'crash-on-signal.cjs'))}`);
    process.kill(pid, 'SIGUSR2');
    const screen = await terminal.shows(/EXIT=1/);
    expect(screen).toMatch(/^mcp-spy ui: internal error: a bug, on purpose\nEXIT=1$/m);
    expect(terminal.pane('#{alternate_on}')).toBe('0');
    expect(terminal.pane('#{cursor_flag}')).toBe('1');
    const [after, before] = settings();
    expect(after).toBe(before);
  });
});

describe('mcp-spy ui resized', () => {
  it('lays itself out again for the new size, down to 80x24 and back', async () => {
    const { terminal } = await startConsole({ width: 120, height: 40 });
    await terminal.shows(/\? help {2}q quit/);
    terminal.resize(80, 24);
    const small = await terminal.shows(/^Enter open {2}Esc back {2}\/ filter {2}f follow {2}p pause {2}Tab {2}\? help {2}q quit$/m);
    expect(small.split('\n').every((line) => line.length <= 80)).toBe(true);
    expect(small.split('\n')[22]).toMatch(/^Enter open/);
    terminal.resize(120, 40);
    const large = await terminal.shows(/^↑↓ move/m);
    expect(large.split('\n')[38]).toMatch(/^↑↓ move/);
    terminal.keys('q');
    await terminal.shows(/EXIT=0/);
  });
});

describe('mcp-spy ui suspended with Ctrl-Z', () => {
  it('gives the terminal back to the shell while stopped, and takes it again, redrawn, on fg', async () => {
    const temp = tempDir('mcp-spy-ui-');
    onTestFinished(temp.remove);
    // An interactive shell, with job control, as a person's terminal has.
    const terminal = startTerminal(`env PS1='prompt$ ' bash --norc --noprofile -i`, { width: 100, height: 30 });
    onTestFinished(terminal.kill);
    await terminal.shows(/^prompt\$/m);
    terminal.literal(`MCP_SPY_DIR=${quote(join(temp.dir, 'sessions'))} ${quote(node)} ${quote(bin)} ui`);
    terminal.keys('Enter');
    await terminal.shows(/no sessions yet/);
    terminal.keys('C-z');
    await terminal.shows(/Stopped/);
    expect(terminal.pane('#{alternate_on}')).toBe('0');
    expect(terminal.pane('#{cursor_flag}')).toBe('1');
    terminal.literal('fg');
    terminal.keys('Enter');
    await terminal.shows(/resumed/);
    expect(terminal.pane('#{alternate_on}')).toBe('1');
    await terminal.shows(/no sessions yet/);
    terminal.keys('?');
    await terminal.shows(/keys \(Esc or \? to go back\)/);
    terminal.keys('q');
    await terminal.shows(/^prompt\$ fg\n[^\n]*\n(?:[^\n]*\n)?prompt\$/m);
    // The status of the job brought back with fg is the console's own.
    terminal.literal('echo "EXIT=$?"');
    terminal.keys('Enter');
    await terminal.shows(/^EXIT=0/m);
    expect(terminal.pane('#{alternate_on}')).toBe('0');
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
