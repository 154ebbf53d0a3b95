import { read } from 'node:fs';
import { open } from 'node:fs/promises';
import { promisify } from 'node:util';
import { setTimeout as sleep } from 'node:timers/promises';
import { defaultMaxLine } from '../wire/framing/limits.js';
import { openFailure } from './reader.js';

export interface LineSourceOptions {
  /** Keep reading as the file grows, until the signal aborts. */
  follow?: boolean;
  signal?: AbortSignal;
  /** How often a followed file is looked at for new lines. */
  pollMs?: number;
  chunkSize?: number;
  /** Lines longer than this many bytes are counted, not read (`defaultMaxLine`). */
  maxLine?: number;
  /** With `follow`: told once that the file does not exist yet and is waited for. */
  onWaiting?: () => void;
  /** With `follow`: awaited once, when the lines already written have all been given. */
  onCaughtUp?: () => void | Promise<void>;
}

/**
 * A line of the file: its text, or for a line over the limit only its size. `offset` is where the
 * line starts in the file, in bytes, and `length` the bytes before its LF: a reader that keeps
 * no copy of a line can read it again from there.
 */
export type SourceLine = ({ lineNo: number; line: string } | { lineNo: number; line?: undefined; bytes: number }) & { offset: number; length: number };

const LF = 0x0a;
const BOM = '\ufeff';

/**
 * Gathers one line's bytes up to the limit; past it, only their count. Strips a CR before the LF
 * and the UTF-8 byte order mark some editors put at the start of a file.
 */
function createLineBuffer(maxLine: number) {
  let parts: Buffer[] = [];
  let size = 0;
  let first = true;
  return {
    /** Adds a piece of the line; `copy` when the piece lives in a buffer that is reused. */
    add(piece: Buffer, copy: boolean) {
      size += piece.length;
      if (size > maxLine) parts = [];
      else if (piece.length > 0) parts.push(copy ? Buffer.from(piece) : piece);
    },
    get empty() {
      return size === 0;
    },
    take(lineNo: number, offset: number): SourceLine {
      const whole = parts.length === 1 ? parts[0]! : Buffer.concat(parts);
      const over = size > maxLine;
      const bytes = size;
      parts = [];
      size = 0;
      if (over) {
        first = false;
        return { lineNo, bytes, offset, length: bytes };
      }
      let text = whole.toString('utf8');
      if (text.endsWith('\r')) text = text.slice(0, -1);
      if (first && text.startsWith(BOM)) text = text.slice(1);
      first = false;
      return { lineNo, line: text, offset, length: bytes };
    },
  };
}

const isBlank = (item: SourceLine) => item.line !== undefined && item.line.trim() === '';

const pause = async (options: LineSourceOptions): Promise<boolean> => {
  try {
    await sleep(options.pollMs ?? 200, undefined, { signal: options.signal });
    return true;
  } catch {
    return false;
  }
};

/** Where the bytes come from: a file, read at a position, or standard input, read in order. */
interface ByteSource {
  read(chunk: Buffer, position: number): Promise<number>;
  close(): Promise<void>;
}

const readFd = promisify(read);

/**
 * Standard input by its descriptor: a pipe from a shell, a file, or the socket a parent process gives
 * (which cannot be opened again as /dev/stdin).
 */
const stdinSource: ByteSource = {
  read: async (chunk) => (await readFd(0, chunk, 0, chunk.length, null)).bytesRead,
  close: async () => {},
};

/** Opens the file; with `follow`, a file not yet created is waited for (undefined: stopped first). */
async function openWhenThere(path: string, options: LineSourceOptions): Promise<ByteSource | undefined> {
  if (path === '-' || path === '/dev/stdin') return stdinSource;
  let told = false;
  for (;;) {
    try {
      const handle = await open(path, 'r');
      // Something that is not a file (a FIFO, a device) cannot be read at a position: read it in order.
      const seekable = await handle.stat().then(
        (stat) => stat.isFile(),
        () => false,
      );
      return {
        read: async (chunk, position) => (await handle.read(chunk, 0, chunk.length, seekable ? position : null)).bytesRead,
        close: () => handle.close(),
      };
    } catch (error) {
      if (!options.follow || (error as NodeJS.ErrnoException).code !== 'ENOENT') throw openFailure(path, error);
    }
    if (!told) options.onWaiting?.();
    told = true;
    if (!(await pause(options))) return undefined;
  }
}

/**
 * Reads a file line by line in flat memory (one chunk and at most one line of `maxLine` bytes at a
 * time), numbering lines from 1 and skipping blank ones. With `follow` it tails the file: a line is
 * given once its newline has been written, so a record being appended to is never read half-written.
 */
export async function* readLines(path: string, options: LineSourceOptions = {}): AsyncGenerator<SourceLine> {
  const source = await openWhenThere(path, options);
  if (!source) return;
  const chunk = Buffer.allocUnsafe(options.chunkSize ?? 256 * 1024);
  const line = createLineBuffer(options.maxLine ?? defaultMaxLine);
  let position = 0;
  let lineNo = 0;
  let lineStart = 0;
  let caughtUp = false;
  try {
    for (;;) {
      let bytesRead: number;
      try {
        bytesRead = await source.read(chunk, position);
      } catch (error) {
        throw openFailure(path, error);
      }
      if (bytesRead === 0) {
        if (options.follow && !caughtUp) {
          caughtUp = true;
          await options.onCaughtUp?.();
        }
        if (!options.follow || options.signal?.aborted) break;
        if (!(await pause(options))) break;
        continue;
      }
      const chunkStart = position;
      position += bytesRead;
      const data = chunk.subarray(0, bytesRead);
      let start = 0;
      let newline = data.indexOf(LF);
      while (newline !== -1) {
        line.add(data.subarray(start, newline), false);
        const item = line.take(++lineNo, lineStart);
        if (!isBlank(item)) yield item;
        start = newline + 1;
        lineStart = chunkStart + start;
        newline = data.indexOf(LF, start);
      }
      // The chunk buffer is reused: keep a copy of an unfinished line.
      if (start < data.length) line.add(data.subarray(start), true);
    }
    if (!line.empty) {
      const item = line.take(lineNo + 1, lineStart);
      if (!isBlank(item)) yield item;
    }
  } finally {
    await source.close();
  }
}
