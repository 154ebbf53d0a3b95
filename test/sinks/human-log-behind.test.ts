// The human log while the observer is behind the traffic: ordinary frames are left out (the record
// has them, and `view` renders them the same), trouble and events are not, and the log says how many.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { humanLog } from '../../src/sinks/human-log.js';
import type { Sink, SinkContext } from '../../src/sinks/sink.js';
import { tempDir, type TestEntry } from '../helpers/spy.js';
import type { EntryOf } from '../../src/record/schema.js';

const context: SinkContext = {
  warn: (message) => {
    throw new Error(`unexpected warning: ${message}`);
  },
  gap: (reason) => ({ v: 2, seq: 0, t: '2026-01-01T00:00:00.000Z', kind: 'gap', reason }),
  own: (kind, fields) => ({ v: 2, seq: 0, t: '2026-01-01T00:00:00.000Z', kind, ...fields }) as EntryOf<typeof kind>,
  failed: () => {},
  note: () => {},
};

let seq = 0;
const frame = (fields: Partial<TestEntry>): TestEntry =>
  ({
    v: 2,
    seq: ++seq,
    t: '2026-01-01T00:00:00.000Z',
    session: 's',
    dir: 'c2s',
    kind: 'request',
    method: 'tools/call',
    id: seq,
    bytes: 10,
    ...fields,
  }) as TestEntry;

async function logOf(record: string | undefined, drive: (sink: Sink) => void): Promise<string[]> {
  const { dir } = tempDir();
  const logPath = join(dir, 'wire.log');
  const open = await humanLog.load();
  const sink = open({ logPath, recordPath: record, live: false, color: false }, context, undefined as never);
  drive(sink);
  await sink.end?.();
  await sink.flush();
  sink.closeNow();
  return readFileSync(logPath, 'utf8').trim().split('\n');
}

describe('the human log while the observer is behind', () => {
  it('leaves out ordinary frames, keeps trouble and events, and says how many it left out once caught up', async () => {
    const lines = await logOf('/somewhere/wire.jsonl', (sink) => {
      sink.entry(frame({ id: 'before' }));
      sink.behind!(true);
      for (let index = 0; index < 5; index++) sink.entry(frame({}));
      sink.entry(frame({ dir: 's2c', kind: 'protocol-error', id: 'broken', error: { code: -32603, message: 'boom' } }));
      sink.entry(frame({ id: 'noted', notes: ['duplicate-id'] }));
      sink.entry({ v: 2, seq: ++seq, t: '2026-01-01T00:00:00.000Z', kind: 'stderr', raw: 'a server line' } as TestEntry);
      sink.behind!(false);
      sink.entry(frame({ id: 'after' }));
    });
    expect(lines).toHaveLength(6);
    expect(lines[0]).toContain('#"before"');
    expect(lines[1]).toContain('#"broken"');
    expect(lines[2]).toContain('#"noted"');
    expect(lines[3]).toContain('a server line');
    expect(lines[4]).toContain(
      'the observer was behind the traffic: 5 ordinary frame(s) left out of this log; the record has them all (mcp-spy view /somewhere/wire.jsonl)',
    );
    expect(lines[5]).toContain('#"after"');
  });

  it('says it at the end when the observing ends while still behind', async () => {
    const lines = await logOf('/somewhere/wire.jsonl', (sink) => {
      sink.behind!(true);
      sink.entry(frame({}));
      sink.entry(frame({}));
    });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('2 ordinary frame(s) left out');
  });

  it('leaves nothing out when there is no record: the log is all there is', async () => {
    const lines = await logOf(undefined, (sink) => {
      sink.behind!(true);
      for (let index = 0; index < 3; index++) sink.entry(frame({}));
      sink.behind!(false);
    });
    expect(lines).toHaveLength(3);
    expect(lines.join('\n')).not.toContain('left out');
  });
});
