// A flood the observer cannot keep up with: the human log leaves out ordinary frames while it is
// behind, so that the record, which holds them all, stays whole for longer. Whatever the machine's
// speed, the log and its notes account for every frame of the record, and `view` renders them all.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readRecord } from '../helpers/faults.js';
import { runBin, tempDir } from '../helpers/spy.js';

const temp = tempDir();
afterAll(() => temp.remove());

const pad = 'x'.repeat(200);
/** 30 MB of tools/call requests: far faster than any observer reads them, it falls behind at least once. */
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
    expect(leftOut.length).toBeGreaterThan(0);
    expect(leftOut.every((match) => match![2] === record)).toBe(true);
    expect(logged + leftOut.reduce((sum, match) => sum + Number(match![1]), 0)).toBe(frames.length);

    const view = await runBin(['view', record, '--kind', 'request', '--format', 'jsonl'], { cwd: temp.dir });
    expect(view.text.trim().split('\n')).toHaveLength(frames.length);
  }, 120_000);

  it('the live view leaves them out too, and says so on stderr', async () => {
    const record = join(temp.dir, 'live.jsonl');
    const result = await runBin(['--record', record, '--no-log', '--', 'cat'], { input, cwd: temp.dir, env: { COLUMNS: '200' } });
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(
      /the observer was behind the traffic: \d+ ordinary frame\(s\) left out of the live view; the record has them all \(mcp-spy view .*live\.jsonl\)/,
    );
  }, 120_000);
});
