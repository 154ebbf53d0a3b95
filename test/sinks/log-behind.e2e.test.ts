// A flood the observer may not keep up with: the human log leaves out ordinary frames while it is
// behind, so that the record, which holds them all, stays whole for longer. Whether it falls behind
// depends on the machine (on a loaded one the forwarding slows as much as the observer, and it
// keeps up): what holds either way is asserted. The log and its notes account for every frame of
// the record, the live view shows every frame or says what it left out, and `view` renders them all.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readRecord } from '../helpers/faults.js';
import { runBin, tempDir } from '../helpers/spy.js';

const temp = tempDir();
afterAll(() => temp.remove());

const pad = 'x'.repeat(200);
/** 30 MB of tools/call requests: on an idle machine faster than the observer reads them. */
const input = Array.from(
  { length: 100_000 },
  (_, index) => `{"jsonrpc":"2.0","id":${index + 1},"method":"tools/call","params":{"name":"echo","arguments":{"p":"${pad}"}}}\n`,
).join('');

describe('a flood through the stdio spy', () => {
  it('keeps the record; the log leaves out only what it says it left out', async () => {
    const record = join(temp.dir, 'wire.jsonl');
    const log = join(temp.dir, 'wire.log');
    const result = await runBin(['-q', '--record', record, '--log', log, '--', 'cat'], { input, cwd: temp.dir });
    expect(result.code).toBe(0);
    expect(result.text).toBe(input);

    const frames = readRecord(record).filter((entry) => entry.dir === 'c2s' || entry.dir === 's2c');
    const lines = readFileSync(log, 'utf8').trim().split('\n');
    const logged = lines.filter((line) => / (->|<-) /.test(line)).length;
    const leftOut = lines
      .map((line) =>
        / the observer was behind the traffic: (\d+) ordinary frame\(s\) left out of this log; the record has them all \(mcp-spy view (.+)\)$/.exec(line),
      )
      .filter((match) => match !== null);
    expect(leftOut.every((match) => match![2] === record)).toBe(true);
    expect(logged + leftOut.reduce((sum, match) => sum + Number(match![1]), 0)).toBe(frames.length);

    const view = await runBin(['view', record, '--kind', 'request', '--format', 'jsonl'], { cwd: temp.dir });
    expect(view.text.trim().split('\n')).toHaveLength(frames.length);
  }, 120_000);

  it('the live view shows every frame, or says on stderr how many it left out', async () => {
    const record = join(temp.dir, 'live.jsonl');
    const result = await runBin(['--record', record, '--no-log', '--', 'cat'], { input, cwd: temp.dir, env: { COLUMNS: '200' } });
    expect(result.code).toBe(0);
    const frames = readRecord(record).filter((entry) => entry.dir === 'c2s' || entry.dir === 's2c');
    const stderr = result.stderr.split('\n');
    const behind = stderr.filter((line) => line.includes('the observer was behind the traffic'));
    // Lines the live view dropped itself (stderr read too slowly) are counted in a line of their own.
    const dropped = stderr.some((line) => line.startsWith('mcp-spy: live view fell behind'));
    for (const line of behind) {
      expect(line).toMatch(/: \d+ ordinary frame\(s\) left out of the live view; the record has them all \(mcp-spy view .*live\.jsonl\)$/);
    }
    if (behind.length === 0 && !dropped) expect(stderr.filter((line) => / (->|<-) /.test(line))).toHaveLength(frames.length);
  }, 120_000);
});
