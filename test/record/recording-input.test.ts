import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readLines } from '../../src/record/line-source.js';
import { frameText } from '../../src/record/frame-message.js';
import { migrateEntry, type LooseEntry } from '../../src/record/migrate.js';
import { readRecording } from '../../src/record/open-recording.js';
import { tempDir } from '../helpers/spy.js';

const temp = tempDir('mcp-spy-lines-');
afterAll(() => temp.remove());

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

describe('the line source', () => {
  it('numbers lines, skips blank ones, strips CRLF, keeps a last line without newline, across tiny chunks, and says where each starts', async () => {
    const path = join(temp.dir, 'lines.txt');
    writeFileSync(path, Buffer.from('first\r\n\nsécond line\n   \nlast', 'utf8'));
    const expected = [
      { line: 'first', lineNo: 1, offset: 0, length: 6 },
      { line: 'sécond line', lineNo: 3, offset: 8, length: 12 },
      { line: 'last', lineNo: 5, offset: 25, length: 4 },
    ];
    expect(await collect(readLines(path))).toEqual(expected);
    // A chunk of 3 bytes splits lines, CRLF and the two bytes of "é".
    expect(await collect(readLines(path, { chunkSize: 3 }))).toEqual(expected);
  });
});

describe('the record migration hook', () => {
  it('runs each step from an older version up to the current one', () => {
    const old: LooseEntry = { v: 0, seq: 1, t: '', kind: 'spawn', oldName: 'x' };
    const steps = {
      0: (entry: LooseEntry) => ({ ...entry, v: 1, newName: entry.oldName }),
      1: (entry: LooseEntry) => ({ ...entry, v: 2 }),
    };
    expect(migrateEntry(old, steps)).toMatchObject({ v: 2, newName: 'x' });
    const current: LooseEntry = { v: 2, seq: 1, t: '', kind: 'spawn' };
    expect(migrateEntry(current, steps)).toBe(current);
  });

  it('refuses a version no step leads from, instead of passing it through', () => {
    const old: LooseEntry = { v: 0, seq: 1, t: '', kind: 'spawn' };
    expect(() => migrateEntry(old)).toThrow(/record version 0 cannot be read/);
    expect(() => migrateEntry({ ...old, v: 1.5 })).toThrow(/record version 1.5 cannot be read/);
  });
});

describe('captures', () => {
  it('split a batch into its members, as live', async () => {
    const path = temp.file('batch.log', '-> [{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/initialized"}]\n');
    const entries = (await collect(readRecording(path))).map(({ lineNo, entry }) => ({
      lineNo,
      kind: entry.kind,
      batch: entry.kind === 'request' || entry.kind === 'notification' ? entry.batch : undefined,
      seq: entry.seq,
    }));
    expect(entries).toEqual([
      { lineNo: 1, kind: 'request', batch: { index: 0, count: 2 }, seq: 1 },
      { lineNo: 1, kind: 'notification', batch: { index: 1, count: 2 }, seq: 2 },
    ]);
  });

  it('carry no time and no latency, since a capture has none', async () => {
    const path = temp.file('plain.log', '-> {"jsonrpc":"2.0","id":1,"method":"ping"}\n<- {"jsonrpc":"2.0","id":1,"result":{}}\n');
    const [, response] = await collect(readRecording(path));
    expect(response!.entry).toEqual({
      v: 2,
      seq: 2,
      session: 'capture',
      dir: 's2c',
      kind: 'response',
      bytes: 36,
      method: 'ping',
      related: { seq: 1, id: 1, method: 'ping' },
      id: 1,
      msg: { jsonrpc: '2.0', id: 1, result: {} },
    });
    expect(frameText(response!.entry)).toBe('{"jsonrpc":"2.0","id":1,"result":{}}');
  });
});
