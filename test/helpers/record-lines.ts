// Record lines written by hand, for the tests of what readers do with odd recordings.
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';

let clock = 0;

/** One record line: an entry of `session`, a frame when `message` is given (its raw text). */
export function entryLine(seq: number, fields: Record<string, unknown>, message?: object, session = 's1'): string {
  const t = new Date(Date.UTC(2026, 6, 28, 10, 0, 0, clock++ * 10)).toISOString();
  const entry: Record<string, unknown> = { v: 1, seq, t, session, ...fields };
  if (message) {
    entry.raw = JSON.stringify({ jsonrpc: '2.0', ...message });
    entry.bytes = Buffer.byteLength(entry.raw as string);
  }
  return `${JSON.stringify(entry)}\n`;
}

/**
 * Writes a recording through a stream: `lines` as they are, and in place of `huge` a frame line
 * whose raw text holds `mib` MiB, written a MiB at a time so the test itself stays small.
 */
export async function writeRecording(path: string, parts: (string | { huge: string; mib: number })[]): Promise<void> {
  const out = createWriteStream(path);
  const block = Buffer.alloc(1024 * 1024, 'x');
  for (const part of parts) {
    if (typeof part === 'string') {
      if (!out.write(part)) await once(out, 'drain');
      continue;
    }
    const [head, tail] = part.huge.split('HUGE');
    out.write(head!);
    for (let i = 0; i < part.mib; i++) if (!out.write(block)) await once(out, 'drain');
    out.write(tail!);
  }
  out.end();
  await once(out, 'finish');
}
