import { describe, expect, it } from 'vitest';
import { createRecorder } from '../../src/observer/recorder.js';
import type { TestEntry } from '../helpers/spy.js';
import type { Sink, SinkContext } from '../../src/sinks/sink.js';

/** A sink that writes down what it is given, in order, and what the recorder asks of it. */
function fakeSink(name: string, calls: string[], options: { keepsGaps?: boolean; backlog?: number } = {}) {
  const entries: { entry: TestEntry; message?: unknown; json?: Buffer | string; hadMsg: boolean }[] = [];
  const gaps: TestEntry[] = [];
  let context: SinkContext | undefined;
  const sink: Sink = {
    entry: (entry, message, json) => entries.push({ entry, message, json, hadMsg: 'msg' in entry }),
    backlog: () => options.backlog ?? 0,
    caughtUp: () => Promise.resolve(),
    flush: async () => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      calls.push(`${name} flushed`);
    },
    closeNow: () => calls.push(`${name} closed`),
  };
  if (options.keepsGaps) sink.failed = (gap) => gaps.push(gap);
  const open = (given: SinkContext) => {
    context = given;
    return sink;
  };
  return { sink, open, entries, gaps, context: () => context! };
}

const ping = Buffer.from('{"jsonrpc":"2.0","id":1,"method":"ping"}');

describe('the recorder and its sinks', () => {
  it('hands every entry to every sink in order, a frame with its message and its JSON, msg set only afterwards', () => {
    const calls: string[] = [];
    const [a, b] = [fakeSink('a', calls), fakeSink('b', calls)];
    const recorder = createRecorder({ sinks: [a.open, b.open], warn: () => {}, transport: 'stdio' });
    recorder.event('s', 'spawn', { command: ['x'] });
    const [frame] = recorder.frame('s', 'c2s', { bytes: ping });
    for (const sink of [a, b]) {
      expect(sink.entries.map(({ entry }) => [entry.seq, entry.kind])).toEqual([
        [1, 'spawn'],
        [2, 'request'],
      ]);
      expect(sink.entries[1]).toMatchObject({ message: { jsonrpc: '2.0', id: 1, method: 'ping' }, hadMsg: false });
      expect(String(sink.entries[1]!.json)).toBe(ping.toString());
    }
    expect(frame!.msg).toEqual({ jsonrpc: '2.0', id: 1, method: 'ping' });
  });

  it('numbers the gap of a failed sink in the record sequence and has only the other sinks that keep gaps write it', () => {
    const calls: string[] = [];
    const [record, log, live] = [fakeSink('record', calls, { keepsGaps: true }), fakeSink('log', calls, { keepsGaps: true }), fakeSink('live', calls)];
    const recorder = createRecorder({ sinks: [record.open, log.open, live.open], warn: () => {}, transport: 'stdio' });
    recorder.frame('s', 'c2s', { bytes: ping });
    const context = log.context();
    context.failed(log.sink, context.gap('log wire.log failed: ENOSPC'));
    expect(record.gaps).toEqual([expect.objectContaining({ seq: 2, kind: 'gap', reason: 'log wire.log failed: ENOSPC' })]);
    expect(log.gaps).toEqual([]);
    expect(recorder.lastSeq()).toBe(2);
  });

  it('paces on the sum of the backlogs, and closes the sinks only once all have flushed', async () => {
    const calls: string[] = [];
    const recorder = createRecorder({
      sinks: [fakeSink('a', calls, { backlog: 3 }).open, fakeSink('b', calls, { backlog: 4 }).open],
      warn: () => {},
      transport: 'http',
    });
    expect(recorder.backlog()).toBe(7);
    await recorder.close();
    expect(calls).toEqual(['a flushed', 'b flushed', 'a closed', 'b closed']);
  });

  it('ends the sinks that send elsewhere while all are open: what an exporter dropped is a note every sink gets', async () => {
    const calls: string[] = [];
    const record = fakeSink('record', calls);
    const exporter = fakeSink('exporter', calls);
    exporter.sink.end = async () => {
      calls.push('exporter ended');
      exporter.context().note({ text: 'OTLP export failed: 2 span(s) dropped', lost: 2 });
    };
    const recorder = createRecorder({ sinks: [record.open, exporter.open], warn: () => {}, transport: 'stdio' });
    await recorder.end();
    await recorder.close();
    expect(record.entries.map(({ entry }) => [entry.seq, entry.kind, entry.text])).toEqual([[1, 'note', 'OTLP export failed: 2 span(s) dropped']]);
    expect(calls).toEqual(['exporter ended', 'record flushed', 'exporter flushed', 'record closed', 'exporter closed']);
  });
});
