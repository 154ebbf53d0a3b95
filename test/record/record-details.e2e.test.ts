import { createServer } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readRecord, request } from '../helpers/faults.js';
import { entryLine } from '../helpers/record-lines.js';
import { runBin, tempDir } from '../helpers/spy.js';

// The spy's own entries belong to the run they tell of, and `check` reads what a record says of
// itself: bytes as bytes, a run cut short as cut short, a file it could not read as not checked.
describe("the spy's own entries", () => {
  it("an exporter's spans-dropped note carries the run's session", async () => {
    // A collector that takes the connection and never answers.
    const silent = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as { port: number };
    const record = join(tempDir().dir, 'wire.jsonl');
    try {
      const result = await runBin(['-q', '--record', record, '--no-log', '--otlp', `http://127.0.0.1:${port}`, '--', 'cat'], { input: request(1) });
      expect(result.code).toBe(0);
    } finally {
      silent.close();
    }
    const entries = readRecord(record);
    const session = entries[0]!.session;
    expect(entries.find((entry) => entry.kind === 'note')).toMatchObject({ notes: ['spans-dropped'], session });
    // After the exit, as docs/record.md says: the spans are sent once the session has ended; check
    // still reads the run as ended (no run-without-exit).
    const kinds = entries.map((entry) => entry.kind);
    expect(kinds.lastIndexOf('note')).toBeGreaterThan(kinds.indexOf('exit'));
    expect((await runBin(['check', record])).text).not.toContain('run-without-exit');
  });
});

describe('check on what a record says of itself', () => {
  const write = (lines: string[]) => tempDir().file('wire.jsonl', lines.join(''));

  it('a gap of a stream counts bytes, a gap of a file entries', async () => {
    const path = write([
      entryLine(1, { kind: 'spawn', transport: 'stdio', command: ['cat'] }),
      entryLine(2, { kind: 'gap', reason: 'the observer fell behind', stream: 'c2s', lost: 4096 }),
      entryLine(3, { kind: 'gap', reason: 'log wire.log failed: ENOSPC', lost: 12, unit: 'entries' }),
      entryLine(4, { kind: 'exit', code: 0, signal: null }),
    ]);
    const result = await runBin(['check', path]);
    expect(result.text).toContain('record-gap: the spy lost traffic here: the observer fell behind (4096 bytes of c2s)');
    expect(result.text).toContain('record-gap: the spy lost traffic here: log wire.log failed: ENOSPC (12 entries)');
  });

  it('a run whose record ends without its exit is said to end so, not clean', async () => {
    const path = write([
      entryLine(1, { kind: 'spawn', transport: 'stdio', command: ['cat'] }),
      entryLine(2, { dir: 'c2s', kind: 'notification', method: 'notifications/initialized' }, { method: 'notifications/initialized' }),
    ]);
    const result = await runBin(['check', path]);
    expect(result.text).toBe(
      `${path}:1: warning run-without-exit: the record of this run ends without an exit entry: the spy was killed or is still running, and what came last may be missing [seq 1, session s1]\n${path}: 0 errors, 1 warning in 2 entries\n`,
    );
    expect(result.code).toBe(0);
  });

  it('a record whose only line was skipped unread is not clean, and fails', async () => {
    const path = tempDir().file('wire.jsonl', `${entryLine(1, { kind: 'stderr', raw: 'x'.repeat(4096) })}`);
    const result = await runBin(['check', path, '--max-line', '1KiB']);
    expect(result.stderr).toMatch(/:1: a line of \d+ bytes, over the line limit of 1KiB .*; skipped\n$/);
    expect(result.text).toBe(`${path}: 0 errors, 0 warnings in 0 entries; 1 line skipped unread, not checked\n`);
    expect(result.code).toBe(1);
  });
});
