import { closeSync, openSync, readSync } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { readRecording } from '../record/open-recording.js';
import { createCapturedAnalysis } from '../record/captured.js';
import { readRecordLine } from '../record/reader.js';
import type { RecordEntry } from '../record/schema.js';
import { parseSessionFileName } from '../record/sessions-dir.js';
import type { Row, SourceEntry } from './rows.js';
import type { EntryLoader } from './state.js';

export interface SourceOptions {
  /** Files and directories; a directory's `*.jsonl` are all read, and new ones as they appear. */
  paths: string[];
  signal: AbortSignal;
  /** Entries read since the last batch; called at most every `batchMs`. */
  onBatch: (items: SourceEntry[]) => void;
  /** A file that cannot be read, or a line skipped: one line for the status bar. */
  onProblem: (text: string) => void;
  /** How often files are looked at for new lines, and directories for new files. */
  pollMs?: number;
  batchMs?: number;
  /** A file's lines written so far have all been read (and handed over). */
  onCaughtUp?: (file: string) => void;
}

/** Entries handed over at once at most, whatever the time since the last batch. */
const flushAt = 1000;

/** What a path named on the command line is: a record, a directory of them, or nothing yet. */
export async function pathKind(path: string): Promise<'file' | 'directory' | 'missing'> {
  try {
    return (await stat(path)).isDirectory() ? 'directory' : 'file';
  } catch {
    return 'missing';
  }
}

/**
 * Reads every record named, and every `*.jsonl` of every directory named, following them as they
 * grow (as `view --follow` does) and looking for new files, until the signal aborts. Entries are
 * handed over in batches, so that a flood of frames costs one update of the console per batch.
 */
export function followSources(options: SourceOptions): Promise<void> {
  const pollMs = options.pollMs ?? 100;
  let pending: SourceEntry[] = [];
  const flush = () => {
    if (pending.length === 0) return;
    const items = pending;
    pending = [];
    options.onBatch(items);
  };
  const timer = setInterval(flush, options.batchMs ?? 50);
  const following = new Set<string>();
  const readers: Promise<void>[] = [];

  const follow = (file: string) => {
    if (following.has(file)) return;
    following.add(file);
    // A session file holds one spy run: once its server exited, nothing more comes, and the file is
    // let go (a sessions directory gathers a file per run, more than a process may keep open).
    const oneRun = parseSessionFileName(file) !== undefined;
    const own = new AbortController();
    const stopOwn = () => own.abort();
    options.signal.addEventListener('abort', stopOwn, { once: true });
    readers.push(
      (async () => {
        try {
          for await (const { entry, lineNo, offset, length } of readRecording(file, {
            follow: true,
            pollMs,
            signal: own.signal,
            onCaughtUp: () => {
              flush();
              options.onCaughtUp?.(file);
            },
            onSkip: (skip) => options.onProblem(`${file}:${skip.lineNo}: ${skip.reason}; skipped`),
          })) {
            pending.push({ file, entry, lineNo, offset, length });
            // A record read through is handed over in slices: entries held long outlive the young
            // generation, and a 1 GiB record would grow the heap by what it read, not what it keeps.
            if (pending.length >= flushAt) flush();
            if (oneRun && entry.kind === 'exit') own.abort();
          }
        } catch (error) {
          options.onProblem((error as Error).message);
        } finally {
          options.signal.removeEventListener('abort', stopOwn);
        }
      })(),
    );
  };

  const watchDirectory = async (dir: string) => {
    while (!options.signal.aborted) {
      try {
        for (const name of (await readdir(dir)).sort()) if (name.endsWith('.jsonl')) follow(join(dir, name));
      } catch {
        // Not there yet (the sessions directory before the first spy): looked for again.
      }
      try {
        await sleep(pollMs, undefined, { signal: options.signal });
      } catch {
        break;
      }
    }
  };

  return (async () => {
    const watchers: Promise<void>[] = [];
    for (const path of options.paths) {
      if ((await pathKind(path)) === 'file') follow(path);
      else watchers.push(watchDirectory(path));
    }
    await Promise.all(watchers);
    await Promise.all(readers);
    clearInterval(timer);
    flush();
  })();
}

/**
 * A row's entry read again from a captured line: its bytes from the frame of the line that is the
 * same as far as a frame read alone can tell (direction, size, id), its annotations from the row,
 * which the reader made with the frames before it (pairing, latency).
 */
function fromSpan(entries: RecordEntry[], row: RecordEntry): RecordEntry | undefined {
  if (!('dir' in row)) return undefined;
  const frame = entries.find((entry) => 'dir' in entry && entry.dir === row.dir && entry.bytes === row.bytes && entry.id === row.id);
  return frame ? ({ ...frame, ...row } as RecordEntry) : undefined;
}

/** How much is read at once: a filter scanning the log reads its files in chunks, not a line at a time. */
const readAhead = 256 * 1024;

/**
 * Reads a row's line again from its file, by its place: the console keeps no frame's bytes. The
 * files stay open until `close`; the last chunk read is kept, so the lines after it cost no read.
 */
export function createFileLoader(): { load: EntryLoader; line: (row: Row) => string | undefined; close: () => void } {
  const handles = new Map<string, number>();
  let chunk: { file: string; start: number; bytes: Buffer } | undefined;
  const bytesAt = (file: string, offset: number, length: number): Buffer => {
    if (chunk && chunk.file === file && offset >= chunk.start && offset + length <= chunk.start + chunk.bytes.length)
      return chunk.bytes.subarray(offset - chunk.start, offset - chunk.start + length);
    let fd = handles.get(file);
    if (fd === undefined) handles.set(file, (fd = openSync(file, 'r')));
    const buffer = Buffer.allocUnsafe(Math.max(length, readAhead));
    const read = readSync(fd, buffer, 0, buffer.length, offset);
    // (What was read past the line is kept only up to the file's end: a followed file grows.)
    chunk = { file, start: offset, bytes: buffer.subarray(0, read) };
    return chunk.bytes.subarray(0, Math.min(length, read));
  };
  const line = (row: Row): string | undefined => {
    if (row.offset === undefined || row.length === undefined) return undefined;
    try {
      return bytesAt(row.file, row.offset, row.length).toString('utf8').replace(/\r$/, '');
    } catch {
      return undefined;
    }
  };
  /** The last span of captured frames analysed: the rows of one span are read one after another. */
  let span: { file: string; offset: number; entries: RecordEntry[] } | undefined;
  const load: EntryLoader = (row: Row) => {
    if (span && span.file === row.file && span.offset === row.offset) return fromSpan(span.entries, row.entry);
    const text = line(row);
    if (text === undefined) return undefined;
    try {
      const item = readRecordLine(text, 0, row.file);
      if (!item.ok) return undefined;
      if (item.entry.kind !== 'captured') return item.entry.seq === row.entry.seq && item.entry.kind === row.entry.kind ? item.entry : undefined;
      // Analysed alone, as the reader did in its place but without what came before (its own numbering, no pairing).
      span = { file: row.file, offset: row.offset!, entries: createCapturedAnalysis().read(item.entry, text) };
      return fromSpan(span.entries, row.entry);
    } catch {
      return undefined;
    }
  };
  return {
    load,
    line,
    close: () => {
      for (const fd of handles.values()) closeSync(fd);
      handles.clear();
      chunk = undefined;
      span = undefined;
    },
  };
}
