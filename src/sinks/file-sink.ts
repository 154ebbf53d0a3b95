import type { OutputFileOptions } from '../record/open-output.js';
import { openLineSink, type Line, type LineSink } from './line-sink.js';
import type { RecordEntry } from '../record/schema.js';
import type { Sink, SinkContext } from './sink.js';

/** A sink that appends lines to a file: what is written, and how a gap reads there. */
export interface FileLines {
  /** The entry's line, or undefined when this file leaves the entry out. */
  lineOf(entry: RecordEntry, message?: unknown, json?: Buffer | string, cut?: Buffer): Line | undefined;
  /** A captured frame's record line: what this file writes of it (the record: the line), if anything. */
  captured?(line: Line, frames?: number): Line | undefined;
  /** A gap or note the spy itself writes (the file was deleted, entries dropped, another sink failed, a torn end). */
  gapLine(gap: RecordEntry): string;
  /** The observer is behind the traffic, or caught up: a line to write when it says what was left out. */
  behind?(behind: boolean): string | undefined;
  /** The observing is over: a last line, if the file has one to add. */
  lastLine?(): string | undefined;
  /** Whether the file keeps checkpoints (the record does: see `Sink.checkpoint`). */
  checkpoints?: boolean;
}

/**
 * Opens `path` as the `name` of the spy (record, log): written off the event loop, started anew
 * when deleted, a gap where it fell behind; when it fails, the others write down the gap it leaves.
 */
export function openFileSink(name: string, path: string, access: OutputFileOptions, lines: FileLines, context: SinkContext): Sink {
  let file: LineSink;
  const sink: Sink = {
    entry(entry, message, json, cut) {
      const line = lines.lineOf(entry, message, json, cut);
      if (line !== undefined) file.write(line);
    },
    captured(line, frames) {
      const written = lines.captured?.(line, frames);
      if (written !== undefined) file.write(written);
    },
    failed: (gap) => file.write(lines.gapLine(gap)),
    behind(behind) {
      const line = lines.behind?.(behind);
      if (line !== undefined) file.write(line);
    },
    async end() {
      const line = lines.lastLine?.();
      if (line !== undefined) file.write(line);
    },
    ...(lines.checkpoints ? { checkpoint: (reached: () => (() => void) | void) => file.checkpoint(reached) } : {}),
    backlog: () => file.queued,
    caughtUp: (limit) => file.whenBelow(limit),
    flush: () => file.flush(),
    closeNow: () => file.closeSync(),
  };
  // Opened after the sink exists: a file that cannot be opened fails at once, and says so as this sink.
  file = openLineSink(path, {
    ...access,
    onReopened: () => {
      context.warn(`${name} ${path} was deleted while the spy ran; it was started anew`);
      return lines.gapLine(context.gap(`${name} ${path} was deleted while the spy ran; the entries before this one went with it`));
    },
    onError: (error, lost) => {
      const counted = lost > 0 ? ` (${lost} entries not written)` : '';
      context.warn(`cannot write ${name} ${path}: ${error.message}; the traffic keeps flowing, the ${name} stops here${counted}`);
      const gap = context.gap(`${name} ${path} failed: ${error.code ?? error.message}; what followed was not written to it`, lost > 0 ? lost : undefined);
      context.failed(sink, gap);
      return (count) => lines.gapLine(count > 0 ? { ...gap, lost: count } : gap);
    },
    onTorn: () => {
      context.warn(`${name} ${path} ended mid-line (a run before this one was cut short); this run starts on a new line`);
      return lines.gapLine(
        context.own('note', { notes: ['torn-line'], text: `${name} ${path} ended mid-line when this run began appending; the line above is cut short` }),
      );
    },
    onDropped: (count) => {
      const gap = context.gap(`${name} fell behind the traffic; entries dropped`, count);
      context.warn(`the ${name} fell behind; ${count} entries dropped (a gap event marks the place)`);
      return lines.gapLine(gap);
    },
  });
  return sink;
}
