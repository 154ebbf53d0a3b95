// --intercept released from the console in a real terminal (tmux): an SDK client drives
// server-everything through a spy that holds what its filter matches, and the keys let it go.
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { bin, everythingServer, node, runClient, tempDir } from '../helpers/spy.js';
import { startTerminal } from '../helpers/tmux.js';

const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

/**
 * The console over a sessions directory of its own, its editor a script: the first edit after a file
 * `bad` is made spoils the frame, any other puts "edited in the console" for "hello from the test".
 */
async function consoleWithEditor(size = { width: 120, height: 40 }) {
  const temp = tempDir('mcp-spy-ui-intercept-');
  onTestFinished(temp.remove);
  const sessions = join(temp.dir, 'sessions');
  const editor = temp.file(
    'edit.sh',
    `#!/bin/sh\nif [ -f ${quote(join(temp.dir, 'bad'))} ]; then rm ${quote(join(temp.dir, 'bad'))}; printf '}}' >> "$1"; else sed -i -e '/^}}$/d' -e 's/hello from the test/edited in the console/' "$1"; fi\n`,
  );
  chmodSync(editor, 0o755);
  const terminal = startTerminal(
    `EDITOR=${quote(editor)} MCP_SPY_DIR=${quote(sessions)} ${quote(node)} ${quote(bin)} ui; echo "EXIT=$?"; exec sleep 600`,
    size,
  );
  onTestFinished(terminal.kill);
  await terminal.shows(/no sessions yet/);
  /** A spy in front of server-everything with these options, started as wrap starts it; the client calls echo with each message. */
  const spied = (spyArgs: string[], messages: (string | { message: string; timeout: number })[], env: NodeJS.ProcessEnv = {}) =>
    runClient(
      'echo-calls-client.js',
      ['--', node, bin, '--client', 'fixture-echo-client', '--name', 'everything', '-q', ...spyArgs, '--', node, everythingServer, 'stdio'],
      {
        MESSAGES: JSON.stringify(messages),
        MCP_SPY_DIR: sessions,
        ...env,
      },
    ) as Promise<unknown[]>;
  return { terminal, spied, bad: () => writeFileSync(join(temp.dir, 'bad'), '') };
}

describe('mcp-spy ui and --intercept', () => {
  it('shows a held tools/call, refuses a bad edit in place, sends the edited frame on: the server answers the edited text', async () => {
    const { terminal, spied, bad } = await consoleWithEditor();
    const client = spied(['--intercept', 'tool = "echo"'], ['hello from the test']);
    await terminal.shows(/ · HELD 1 \(i\)/);
    terminal.keys('i');
    const held = await terminal.shows(/"message": "hello from the test"/);
    expect(held).toMatch(/^> #1 +fixture-echo-client\/everything +-> tools\/call tool=echo #\d+/m);
    expect(held).toMatch(/^↑↓ move {2}a\/Enter forward {2}e edit {2}d drop {2}x error {2}Esc back {2}q quit$/m);

    // A bad edit is refused where the frame is, and nothing is sent: the frame stays held.
    bad();
    terminal.keys('e');
    await terminal.shows(/^ {2}✗ the edited frame is not JSON: .* \(e edits it again\)$/m);
    // The next edit starts from the refused text and mends it.
    terminal.keys('e');
    await terminal.shows(/#1 edited at the console, then passed on/);

    // The answer carries its request's tool, so it is held too: it shows the server got the edited text.
    await terminal.shows(/"text": "Echo: edited in the console"/);
    terminal.keys('a');
    const [call] = await client;
    expect(call).toEqual({ result: { content: [{ type: 'text', text: 'Echo: edited in the console' }] } });
    await terminal.shows(/no frame is held/);

    // Esc goes back to where i was pressed (the sessions); in the stream the edited call is marked so.
    terminal.keys('Escape');
    await terminal.shows(/^sessions · /m);
    terminal.keys('Enter');
    // The record is written a moment behind the traffic (the observer batches its writes, at a
    // lower priority): the answer's entry may follow the request's on the screen.
    const stream = await terminal.shows(/<- response +tools\/call tool=echo #\d+ [\d.]+ms \(intercepted\)/);
    expect(stream).toMatch(/-> request +tools\/call tool=echo #\d+ \(edited at the intercept\)/);
    expect(stream).toMatch(/\*\* INTERCEPT +edit #1 by console tools\/call tool=echo/);
    terminal.keys('q');
    await terminal.shows(/EXIT=0/);
  });

  it('drops one held call and answers another with an error, from the keys, in an 80x24 terminal', async () => {
    const { terminal, spied } = await consoleWithEditor({ width: 80, height: 24 });
    // The dropped call is given up after 3 s: what a client does when no answer comes.
    const client = spied(['--intercept', 'tool = "echo" and dir = c2s'], [{ message: 'drop me', timeout: 3000 }, 'refuse me']);
    await terminal.shows(/ · HELD 1 \(i\)/);
    terminal.keys('i');
    const held = await terminal.shows(/"message": "drop me"/);
    expect(held.split('\n').every((line) => line.length <= 80)).toBe(true);
    terminal.keys('d');
    await terminal.shows(/#1 dropped at the console/);
    await terminal.shows(/"message": "refuse me"/);
    terminal.keys('x');
    await terminal.shows(/answered with an error from the console/);
    expect(await client).toEqual([
      { code: -32001, message: expect.stringContaining('Request timed out') },
      { code: -32603, message: expect.stringContaining('refused at the mcp-spy intercept') },
    ]);
    terminal.keys('q');
    await terminal.shows(/EXIT=0/);
  });

  it('lets a hold nobody attends go at its bound: the session completes', async () => {
    const { terminal, spied } = await consoleWithEditor();
    // Long enough for the console to show the hold on a busy machine, short enough for a test.
    const client = spied(['--intercept', 'tool = "echo" and dir = c2s', '--hold-timeout', '5s'], ['nobody is at the keys']);
    await terminal.shows(/ · HELD 1 \(i\)/);
    expect(await client).toEqual([{ result: { content: [{ type: 'text', text: 'Echo: nobody is at the keys' }] } }]);
    // The console hears of the release from the spy: HELD leaves the title.
    await terminal.shows(/^sessions · all sessions \(1\) · frame \d+\/\d+(?! · HELD)/m);
    terminal.keys('q');
    await terminal.shows(/EXIT=0/);
  });
});
