// The console's `y` and `e` in a real terminal (tmux): the frame's exact bytes reach the terminal's
// clipboard by OSC 52, and the entries shown are exported as a record beside where it was started.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { bin, node, tempDir } from '../helpers/spy.js';
import { startTerminal } from '../helpers/tmux.js';
import { sampleSession } from '../helpers/ui-records.js';

const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

describe('mcp-spy ui: y and e', () => {
  it('y puts the frame under the cursor on the clipboard (OSC 52); e writes the frames shown, filtered, as record lines', async () => {
    const temp = tempDir('mcp-spy-ui-copy-');
    onTestFinished(temp.remove);
    const lines = sampleSession();
    writeFileSync(join(temp.dir, 'wire.jsonl'), `${lines.join('\n')}\n`);
    const terminal = startTerminal(`cd ${quote(temp.dir)} && ${quote(node)} ${quote(bin)} ui wire.jsonl; echo "EXIT=$?"; exec sleep 600`, {
      width: 100,
      height: 30,
    });
    onTestFinished(terminal.kill);
    await terminal.shows(/all sessions, merged/);
    terminal.keys('Enter');
    await terminal.shows(/^frames /m);

    // The echo call's answer, found with the filter and copied.
    terminal.literal('/tool = "echo" and kind = "response"');
    terminal.keys('Enter');
    await terminal.shows(/filter: tool = "echo" and kind = "response"/);
    terminal.keys('y');
    await terminal.shows(/copied frame seq \d+ \(\d+ bytes\) to the clipboard \(OSC 52\)/);
    const answer = lines
      .map((line) => JSON.parse(line) as { kind?: string; tool?: string; msg?: unknown })
      .find((entry) => entry.kind === 'response' && entry.tool === 'echo');
    expect(terminal.clipboard()).toBe(JSON.stringify(answer!.msg));

    // What is shown (the filter on the echo calls) exported as the record's own lines.
    terminal.keys('/', 'C-u');
    terminal.literal('tool = "echo"');
    terminal.keys('Enter');
    await terminal.shows(/filter: tool = "echo"$/m);
    terminal.keys('e');
    const said = await terminal.shows(/exported \d+ entries to \S+/);
    const exported = readdirSync(temp.dir).filter((name) => /^mcp-spy-export-.*\.jsonl$/.test(name));
    expect(exported).toHaveLength(1);
    const written = readFileSync(join(temp.dir, exported[0]!), 'utf8');
    const echoLines = lines.filter((line) => (JSON.parse(line) as { tool?: string }).tool === 'echo');
    expect(written).toBe(`${echoLines.join('\n')}\n`);
    expect(said).toContain(`exported ${echoLines.length} entries to`);

    terminal.keys('q');
    await terminal.shows(/EXIT=0/);
  });
});
