import { open } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { openFailure } from './reader.js';

export interface LineSourceOptions {
  /** Keep reading as the file grows, until the signal aborts. */
  follow?: boolean;
  signal?: AbortSignal;
  /** How often a followed file is looked at for new lines. */
  pollMs?: number;
  chunkSize?: number;
}

export interface SourceLine {
  line: string;
  lineNo: number;
}

const LF = 0x0a;

function textOf(parts: Buffer[]): string {
  const text = (parts.length === 1 ? parts[0]! : Buffer.concat(parts)).toString('utf8');
  return text.endsWith('\r') ? text.slice(0, -1) : text;
}

/**
 * Reads a file line by line in flat memory (one chunk and one line at a time), numbering lines
 * from 1 and skipping blank ones. With `follow` it tails the file: a line is given once its newline
 * has been written, so a record being appended to is never read half-written.
 */
export async function* readLines(path: string, options: LineSourceOptions = {}): AsyncGenerator<SourceLine> {
  let handle;
  try {
    handle = await open(path, 'r');
  } catch (error) {
    throw openFailure(path, error);
  }
  const chunk = Buffer.allocUnsafe(options.chunkSize ?? 256 * 1024);
  let parts: Buffer[] = [];
  let position = 0;
  let lineNo = 0;
  try {
    for (;;) {
      let bytesRead: number;
      try {
        ({ bytesRead } = await handle.read(chunk, 0, chunk.length, position));
      } catch (error) {
        throw openFailure(path, error);
      }
      if (bytesRead === 0) {
        if (!options.follow || options.signal?.aborted) break;
        try {
          await sleep(options.pollMs ?? 200, undefined, { signal: options.signal });
        } catch {
          break;
        }
        continue;
      }
      position += bytesRead;
      const data = chunk.subarray(0, bytesRead);
      let start = 0;
      let newline = data.indexOf(LF);
      while (newline !== -1) {
        parts.push(data.subarray(start, newline));
        const line = textOf(parts);
        parts = [];
        lineNo++;
        if (line.trim() !== '') yield { line, lineNo };
        start = newline + 1;
        newline = data.indexOf(LF, start);
      }
      // The chunk buffer is reused: keep a copy of an unfinished line.
      if (start < data.length) parts.push(Buffer.from(data.subarray(start)));
    }
    if (parts.length > 0) {
      const line = textOf(parts);
      if (line.trim() !== '') yield { line, lineNo: lineNo + 1 };
    }
  } finally {
    await handle.close();
  }
}
