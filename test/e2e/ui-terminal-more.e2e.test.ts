// The console in a real terminal (tmux): under a flood of frames, its colours per NO_COLOR and FORCE_COLOR, hostile strings, bad use.
import { spawnSync } from 'node:child_process';
import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { bin, node, tempDir } from '../helpers/spy.js';
import { startTerminal } from '../helpers/tmux.js';
import { recordWriter } from '../helpers/ui-records.js';

const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

function consoleOn(record: string, env = '') {
  const command = `${env} ${quote(node)} ${quote(bin)} ui ${quote(record)}; echo "EXIT=$?"; exec sleep 600`;
  const terminal = startTerminal(command, { width: 100, height: 30 });
  onTestFinished(terminal.kill);
  return terminal;
}

describe('mcp-spy ui colours', () => {
  const temp = tempDir('mcp-spy-ui-colour-');
  afterAll(temp.remove);
  const w = recordWriter();
  w.frame('c2s', 'request', { method: 'ping', id: 1 }, { id: 1, method: 'ping' });
  const record = join(temp.dir, 'wire.jsonl');
  writeFileSync(record, `${w.lines.join('\n')}\n`);
  const colour = /\u001b\[[0-9;]*(3[0-7]|38;5;\d+|9[0-7])m/;

  it.each([
    ['NO_COLOR=1', false],
    ['FORCE_COLOR=1', true],
  ])('%s: kinds %s', async (env, coloured) => {
    const terminal = consoleOn(record, env);
    await terminal.shows(/all sessions, merged/);
    terminal.keys('Enter');
    await terminal.shows(/-> request\s+ping #1/);
    expect(colour.test(terminal.screen(true))).toBe(coloured);
    terminal.keys('q');
    await terminal.shows(/EXIT=0/);
  });
});

describe('mcp-spy ui in a shell where CI is set', () => {
  const temp = tempDir('mcp-spy-ui-ci-');
  afterAll(temp.remove);
  const w = recordWriter();
  w.frame('c2s', 'request', { method: 'ping', id: 1 }, { id: 1, method: 'ping' });
  const record = join(temp.dir, 'wire.jsonl');
  writeFileSync(record, `${w.lines.join('\n')}\n`);

  // Ink draws only its last frame when it believes it runs in CI: the screen stayed blank until `q`.
  it.each(['CI=true', 'CONTINUOUS_INTEGRATION=1'])('%s: draws every frame as it comes, not only the last', async (env) => {
    const terminal = consoleOn(record, env);
    await terminal.shows(/all sessions, merged/);
    terminal.keys('Enter');
    await terminal.shows(/-> request\s+ping #1/);
    terminal.keys('q');
    await terminal.shows(/EXIT=0/);
  });
});

describe('mcp-spy ui under a flood of frames', () => {
  it('keeps showing the newest frames and answers keys while 20,000 frames a second are written', async () => {
    const temp = tempDir('mcp-spy-ui-flood-');
    onTestFinished(temp.remove);
    const record = join(temp.dir, 'flood.jsonl');
    writeFileSync(record, '');
    const terminal = consoleOn(record);
    await terminal.shows(/no sessions yet/);
    terminal.keys('Enter');
    await terminal.shows(/^frames/);
    const w = recordWriter('flood');
    let stop = false;
    let written = 0;
    const writing = (async () => {
      // 200 frames every 10 ms: 20,000 a second, as long as the test needs.
      while (!stop) {
        w.lines.length = 0;
        for (let i = 0; i < 200; i++)
          w.frame(
            'c2s',
            'request',
            { method: 'tools/call', id: written + i, tool: 'echo' },
            { id: written + i, method: 'tools/call', params: { name: 'echo', arguments: { message: 'flood' } } },
          );
        appendFileSync(record, `${w.lines.join('\n')}\n`);
        written += 200;
        await sleep(10);
      }
    })();
    onTestFinished(() => {
      stop = true;
    });
    await terminal.shows(/frame \d{5,}\/\d{5,} · FOLLOW/);
    // Moving by hand stops following, at once, while the flood goes on.
    terminal.keys('k');
    await terminal.shows(/^frames · all sessions \(1\) · frame \d+\/\d+\n/, 5000);
    terminal.keys('f');
    await terminal.shows(/FOLLOW/, 5000);
    terminal.keys('q');
    await terminal.shows(/EXIT=0/, 5000);
    stop = true;
    await writing;
    expect(written).toBeGreaterThan(10_000);
  });
});

describe('mcp-spy ui and hostile strings in a real terminal', () => {
  it('shows escapes, bidi overrides and a 10 KB method name as visible text; the terminal obeys none of them', async () => {
    const temp = tempDir('mcp-spy-ui-hostile-');
    onTestFinished(temp.remove);
    const w = recordWriter('x');
    // A title change, a clear screen, a clipboard write, a right-to-left override, and 10 KB of name.
    const method = `\u001b]2;PWNED\u0007\u001b[2J\u001b]52;c;ZXZpbA==\u0007evil\u202egnp.exe${'m'.repeat(10_000)}`;
    w.frame('c2s', 'request', { method, id: 1, tool: '\u001b[31mred\u009b31m' }, { id: 1, method, params: { name: '\u202e' } });
    const record = temp.file('wire.jsonl', `${w.lines.join('\n')}\n`);
    const terminal = consoleOn(record);
    await terminal.shows(/all sessions, merged/);
    const title = terminal.pane('#{pane_title}');
    terminal.keys('Enter');
    await terminal.shows(/-> request\s+\\u001b\]2;PWNED\\u0007\\u001b\[2J\\u001b\]52;c;ZXZpbA==\\u0007evil…/);
    terminal.keys('Enter');
    const inspector = await terminal.shows(/"name": "\\u202e"/);
    expect(inspector).toContain('request \\u001b]2;PWNED\\u0007\\u001b[2J\\u001b]52;c;ZXZpbA==\\u0007evil\\u202egnp.exemmm');
    // The header line is wrapped at the terminal's width.
    expect(inspector.replace(/\n/g, '')).toContain('tool=\\u001b[31mred\\u009b31m');
    expect(terminal.pane('#{pane_title}')).toBe(title);
    // The terminal lets programs set its clipboard (OSC 52): the method's clipboard write never reached it.
    expect(terminal.clipboard()).toBe('');
    expect(terminal.screen(true)).not.toMatch(/\u001b\[31m|\u001b\[[0-9;]*41m/);
    expect(terminal.screen()).not.toContain('m'.repeat(300));
    terminal.keys('q');
    await terminal.shows(/EXIT=0/);
  });
});

describe('mcp-spy ui given what it cannot use', () => {
  it.each([
    [`ui --filter 'tool ='`, "mcp-spy: bad filter expression: expected a value after '=' at column 7"],
    [`ui no-such.jsonl`, 'mcp-spy: cannot read no-such.jsonl: no such file or directory'],
  ])('%s: one line and exit 2', async (args, line) => {
    const terminal = startTerminal(`${quote(node)} ${quote(bin)} ${args}; echo "EXIT=$?"; exec sleep 600`, { width: 100, height: 30 });
    onTestFinished(terminal.kill);
    const screen = await terminal.shows(/EXIT=2/);
    expect(screen.trim().split('\n')).toEqual([line, 'EXIT=2']);
  });
});

describe('mcp-spy ui: live while the writer runs', () => {
  it('shows a session whose spy died without an exit entry as ended, one whose spy runs as live', async () => {
    const temp = tempDir('mcp-spy-ui-live-');
    onTestFinished(temp.remove);
    // A process that has exited (its pid free), and one that runs: this test's own.
    const dead = spawnSync(node, ['-e', '']).pid!;
    const w = recordWriter();
    w.frame('c2s', 'request', { method: 'ping', id: 1 }, { id: 1, method: 'ping' });
    const lines = `${w.lines.join('\n')}\n`;
    writeFileSync(join(temp.dir, `c--crashed--20261201T170000123Z-${dead}.jsonl`), lines);
    writeFileSync(join(temp.dir, `c--running--20261201T170001123Z-${process.pid}.jsonl`), lines);
    const terminal = consoleOn(temp.dir);
    await terminal.shows(/crashed .* ended/);
    expect(terminal.screen()).toMatch(/running .* live/);
    terminal.keys('q');
    await terminal.shows(/EXIT=0/);
  });
});
