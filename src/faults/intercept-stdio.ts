// --intercept on a stdio session: each line of either side is read whole and held when the filter
// matches it. A side is one ordered stream: the lines behind a held one wait behind it (a frame
// that matches there is held too), and go on, in order, once everything before them is let go.
import type { FrameEntry } from '../record/schema.js';
import type { FaultIo, FaultRecorder, StdioFaults } from './stdio-faults.js';
import { interceptEntry, newRequestsSeen } from './intercept-frame.js';
import type { Holds, HoldOutcome } from './intercept-holds.js';

type Side = 'c2s' | 's2c';
const other = (dir: Side): Side => (dir === 'c2s' ? 's2c' : 'c2s');

/** A line waiting its turn: a held one until its outcome comes; one the spy made (an error answer) ready at once. */
interface Queued {
  whole: Buffer;
  line: string;
  /** Its line ending as it came ("" for a last line without one). */
  eol: Buffer;
  held: boolean;
  outcome?: HoldOutcome;
  mark?: Partial<FrameEntry>;
}

export function createStdioIntercept(holds: Holds, session: string | undefined, io: FaultIo, record: Pick<FaultRecorder, 'line'>): StdioFaults {
  const { filter, test } = holds.options;
  const rest: Record<Side, Buffer> = { c2s: Buffer.alloc(0), s2c: Buffer.alloc(0) };
  const queue: Record<Side, Queued[]> = { c2s: [], s2c: [] };
  const waiting: Record<Side, (() => void) | undefined> = { c2s: undefined, s2c: undefined };
  const sent = newRequestsSeen();

  const write = (dir: Side, bytes: Buffer, mark?: Partial<FrameEntry>) => {
    io.write(dir, bytes);
    record.line(dir, bytes, mark);
  };

  function deliver(dir: Side, item: Queued) {
    const mark = { intercept: filter };
    const outcome = item.outcome;
    if (!item.held) return write(dir, item.whole, item.mark);
    if (outcome?.action === 'edit') {
      return write(dir, Buffer.concat([Buffer.from(outcome.line), item.eol.length > 0 ? item.eol : Buffer.from('\n')]), {
        ...mark,
        origin: 'spy',
        original: outcome.original,
      });
    }
    if (outcome?.action === 'drop' || outcome?.action === 'error') {
      // The frame as sent stays in the record, marked; it reaches no one.
      record.line(dir, item.whole, mark);
      if (outcome.action === 'error') {
        queue[other(dir)].push({
          whole: Buffer.from(`${outcome.answer}\n`),
          line: outcome.answer,
          eol: Buffer.from('\n'),
          held: false,
          mark: { ...mark, origin: 'spy' },
        });
        drain(other(dir));
      }
      return;
    }
    write(dir, item.whole, mark);
  }

  function drain(dir: Side) {
    while (queue[dir].length > 0 && (!queue[dir][0]!.held || queue[dir][0]!.outcome)) deliver(dir, queue[dir].shift()!);
    if (queue[dir].length === 0 && waiting[dir]) {
      const done = waiting[dir]!;
      waiting[dir] = undefined;
      done();
    }
  }

  function onLine(dir: Side, whole: Buffer) {
    let end = whole.length;
    if (end > 0 && whole[end - 1] === 0x0a) end -= end >= 2 && whole[end - 2] === 0x0d ? 2 : 1;
    const line = whole.subarray(0, end).toString('utf8');
    const entry = interceptEntry(line, dir, session, sent);
    let matches = false;
    try {
      matches = test(entry);
    } catch {
      // A filter that cannot read a frame holds nothing: the traffic comes first.
    }
    const item: Queued = { whole, line, eol: whole.subarray(end), held: matches };
    queue[dir].push(item);
    if (matches) {
      holds.hold(entry, line, (outcome) => {
        item.outcome = outcome;
        drain(dir);
      });
    }
    drain(dir);
  }

  return {
    chunk(dir, chunk) {
      let data = rest[dir].length > 0 ? Buffer.concat([rest[dir], chunk]) : chunk;
      let at = data.indexOf(0x0a);
      while (at !== -1) {
        onLine(dir, data.subarray(0, at + 1));
        data = data.subarray(at + 1);
        at = data.indexOf(0x0a);
      }
      rest[dir] = Buffer.from(data);
    },
    end(dir, done) {
      if (rest[dir].length > 0) onLine(dir, rest[dir]);
      rest[dir] = Buffer.alloc(0);
      waiting[dir] = done;
      drain(dir);
    },
    stop() {
      holds.releaseAll();
    },
  };
}
