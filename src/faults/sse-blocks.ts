// An SSE answer cut into whole events with their bytes as sent, for the rules that act on one event
// (hold it, leave it out, spoil its data): the observer's framer parses, this one only splits.

export interface SseBlocks {
  /** Feeds a chunk; returns the events it completed, each with its blank line. */
  push(chunk: Buffer): Buffer[];
  /** The stream ended: what is left of an unfinished event (empty when none). */
  end(): Buffer;
}

const LF = 0x0a;
const CR = 0x0d;

/** Splits at blank lines, whichever line ending the server uses (LF, CRLF or CR alone). */
export function createSseBlocks(): SseBlocks {
  let rest = Buffer.alloc(0);
  return {
    push(chunk) {
      const data = rest.length > 0 ? Buffer.concat([rest, chunk]) : chunk;
      const blocks: Buffer[] = [];
      let blockStart = 0;
      let lineStart = 0;
      for (let at = 0; at < data.length; at++) {
        const byte = data[at]!;
        if (byte !== LF && byte !== CR) continue;
        // A CR at the end of what has come may be the first half of a CRLF: wait for the next byte.
        if (byte === CR && at + 1 === data.length) break;
        const end = byte === CR && data[at + 1] === LF ? at + 2 : at + 1;
        if (at === lineStart) {
          blocks.push(data.subarray(blockStart, end));
          blockStart = end;
        }
        lineStart = end;
        at = end - 1;
      }
      rest = Buffer.from(data.subarray(blockStart));
      return blocks;
    },
    end() {
      const left = rest;
      rest = Buffer.alloc(0);
      return left;
    },
  };
}

const lines = (block: Buffer) => block.toString('utf8').split(/\r\n|\r|\n/);
const isData = (line: string) => line === 'data' || line.startsWith('data:');

/** The event's data (its data lines joined with LF), or undefined when it has none (a priming event, a comment). */
export function sseData(block: Buffer): string | undefined {
  const data = lines(block)
    .filter(isData)
    .map((line) => line.slice(5).replace(/^ /, ''));
  return data.length > 0 ? data.join('\n') : undefined;
}

/** The same event (its id, its event name) carrying `data` instead. */
export function withSseData(block: Buffer, data: string): Buffer {
  const kept = lines(block).filter((line) => line !== '');
  const first = kept.findIndex(isData);
  const fresh = data.split('\n').map((line) => `data: ${line}`);
  const out = first === -1 ? [...kept, ...fresh] : [...kept.slice(0, first), ...fresh, ...kept.slice(first).filter((line) => !isData(line))];
  return Buffer.from(`${out.join('\n')}\n\n`);
}

/** An event made of `text` alone: one data line per line of it. */
export function sseEvent(text: string): Buffer {
  return withSseData(Buffer.alloc(0), text);
}
