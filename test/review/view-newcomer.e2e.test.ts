// What a new user of `view` trips over: times, standard input, -n, --follow. Their bad use (a time that
// is no time, an unknown session, --follow of a JSON array) is in test/cli/bad-use-review.test.ts.
import { spawn } from 'node:child_process';
import { appendFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { waitUntil } from '../helpers/faults.js';
import { bin, runBin, runBinSync, tempDir } from '../helpers/spy.js';

const temp = tempDir();
afterAll(() => temp.remove());

const line = (seq: number, time: string, session = 's1') =>
  `${JSON.stringify({ v: 1, seq, t: `2026-07-28T${time}Z`, session, dir: 'c2s', kind: 'request', method: 'ping', id: seq, raw: `{"jsonrpc":"2.0","id":${seq},"method":"ping"}` })}\n`;
const shown = (seq: number, time: string) => `${time} -> request     ping #${seq}\n`;
// Four pings, one each side of 06:46 UTC, in two sessions.
const record = temp.file('wire.jsonl', line(1, '06:45:59.000') + line(2, '06:46:00.000') + line(3, '06:46:30.500', 's2') + line(4, '06:47:00.000', 's2'));

const until = (test: () => boolean) => waitUntil(test, 40_000, 'view --follow to show it');

describe('view: one meaning of time, in UTC', () => {
  it('--filter time compares clock times as --since does', () => {
    const byFilter = runBinSync(['view', record, '--filter', 'time >= "06:46" and time < 06:47']);
    const bySince = runBinSync(['view', record, '--since', '06:46', '--until', '06:46:59']);
    expect(byFilter.text).toBe(shown(2, '06:46:00.000') + shown(3, '06:46:30.500'));
    expect(bySince.text).toBe(byFilter.text);
    expect(runBinSync(['view', record, '--filter', 'time = "06:46"']).text).toBe(byFilter.text);
    expect(runBinSync(['view', record, '--filter', 'time > "2026-07-28T06:46:30Z"']).text).toBe(shown(3, '06:46:30.500') + shown(4, '06:47:00.000'));
  });

  it("takes a Z, and with --local reads and shows the machine's time zone", () => {
    expect(runBinSync(['view', record, '--since', '06:47Z']).text).toBe(shown(4, '06:47:00.000'));
    const tokyo = runBin(['view', record, '--local', '--since', '15:47'], { env: { TZ: 'Asia/Tokyo' } });
    return tokyo.then((result) => {
      expect(result.text).toBe(shown(4, '15:47:00.000'));
      expect(result.code).toBe(0);
    });
  });
});

describe('view: where the entries come from and which', () => {
  it('reads standard input as - and as /dev/stdin', async () => {
    const input = line(1, '06:45:59.000') + line(2, '06:46:00.000');
    for (const file of ['-', '/dev/stdin']) {
      const result = await runBin(['view', file], { input });
      expect(result.stderr, file).toBe('');
      expect(result.text, file).toBe(shown(1, '06:45:59.000') + shown(2, '06:46:00.000'));
      expect(result.code, file).toBe(0);
    }
  });

  it('-n N starts at the last N entries selected', () => {
    expect(runBinSync(['view', record, '-n', '2']).text).toBe(shown(3, '06:46:30.500') + shown(4, '06:47:00.000'));
    expect(runBinSync(['view', record, '--session', 's1', '-n', '1']).text).toBe(shown(2, '06:46:00.000'));
    expect(runBinSync(['view', record, '-n', '0']).text).toBe('');
  });

  it('--follow -n 1 shows the last entry, then those appended; a record not yet created is waited for', async () => {
    const later = join(temp.dir, 'later.jsonl');
    const child = spawn(process.execPath, [bin, 'view', later, '--follow', '-n', '1'], { env: { ...process.env, FORCE_COLOR: '0' } });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => (err += chunk));
    await until(() => err !== '');
    expect(err).toBe(`mcp-spy: ${later} does not exist yet; waiting for it (Ctrl-C to stop)\n`);
    // Written whole, then renamed into place: the reader never sees it half-written.
    writeFileSync(`${later}.part`, line(1, '06:45:59.000') + line(2, '06:46:00.000'));
    renameSync(`${later}.part`, later);
    await until(() => out.includes('ping #2'));
    appendFileSync(later, line(3, '06:46:30.500'));
    await until(() => out.includes('ping #3'));
    const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    child.kill('SIGINT');
    expect(await exit).toBe(0);
    expect(out).toBe(shown(2, '06:46:00.000') + shown(3, '06:46:30.500'));
    expect(err).toBe(`mcp-spy: ${later} does not exist yet; waiting for it (Ctrl-C to stop)\n`);
  });
});
