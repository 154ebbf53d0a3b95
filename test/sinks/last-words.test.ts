import { readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { appendLastWords } from '../../src/sinks/last-words.js';
import { readRecord } from '../helpers/faults.js';
import { tempDir } from '../helpers/spy.js';

describe('the last words of a record whose observer did not finish', () => {
  it('are a gap after the last entry written, then the exit, in the same session', () => {
    const { file } = tempDir();
    const record = file('wire.jsonl', '{"v":2,"seq":7,"t":"2026-01-01T00:00:00.000Z","session":"s","kind":"request","dir":"c2s","bytes":2,"msg":{}}\n');
    appendLastWords(record, { named: false, session: 's', lastSeq: 7, outcome: { started: true, pid: 1, code: 3, signal: null, exitCode: 3 } });
    const entries = readRecord(record);
    expect(entries.map((entry) => [entry.seq, entry.kind, entry.session])).toEqual([
      [7, 'request', 's'],
      [8, 'gap', 's'],
      [9, 'exit', 's'],
    ]);
    expect(entries[2]).toMatchObject({ code: 3, signal: null });
  });

  it('never follow a planted link for a default record', () => {
    const { dir, file } = tempDir();
    const target = file('elsewhere.txt', 'keep\n');
    const link = join(dir, 'wire.jsonl');
    symlinkSync(target, link);
    appendLastWords(link, { named: false, session: 's', lastSeq: 0, outcome: { started: false, errorCode: 'ENOENT', why: 'command not found', exitCode: 127 } });
    expect(readFileSync(target, 'utf8')).toBe('keep\n');
  });
});
