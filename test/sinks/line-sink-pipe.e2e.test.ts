import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openLineSink } from '../../src/sinks/line-sink.js';
import { waitUntil } from '../helpers/faults.js';
import { node, tempDir } from '../helpers/spy.js';

/**
 * A FIFO with a reader that takes `first` bytes, waits `pauseMs`, then reads on to EOF: what it got
 * is in `into` once `done` resolves.
 */
function pausingReader(first: number, pauseMs: number) {
  const dir = tempDir().dir;
  const fifo = join(dir, 'pipe.jsonl');
  const into = join(dir, 'read.jsonl');
  if (spawnSync('mkfifo', [fifo]).status !== 0) throw new Error('mkfifo failed');
  const script = `
    const fs = require('node:fs');
    const fd = fs.openSync(process.argv[1], 'r');
    const out = fs.openSync(process.argv[2], 'w');
    const chunk = Buffer.alloc(64 * 1024);
    let got = 0;
    let paused = false;
    for (;;) {
      const read = fs.readSync(fd, chunk, 0, paused ? chunk.length : Math.min(chunk.length, ${first} - got));
      if (read === 0) break;
      fs.writeSync(out, chunk, 0, read);
      got += read;
      if (!paused && got >= ${first}) {
        paused = true;
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ${pauseMs});
      }
    }`;
  const reader = spawn(node, ['-e', script, fifo, into], { stdio: 'ignore' });
  const done = new Promise<void>((resolve) => reader.on('close', () => resolve()));
  return { fifo, into, done };
}

/** A line of `size` bytes, its newline included, made of `letter`. */
const lineOf = (letter: string, size: number) => Buffer.from(`${letter.repeat(size - 1)}\n`);

async function opened(fifo: string) {
  // The reader opens its end first: a FIFO nobody reads is refused (ENXIO).
  for (let tries = 0; tries < 200; tries++) {
    const sink = openLineSink(fifo, { named: true, onError: () => undefined });
    if (sink.ok) return sink;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('the reader did not open the FIFO');
}

describe('a line sink on a FIFO whose reader is slow', () => {
  it('closing at once finishes the line a full pipe sent back before writing the rest: no line is torn', async () => {
    const { fifo, into, done } = pausingReader(100 * 1024, 150);
    const sink = await opened(fifo);
    // More than the pipe holds (64 KiB) past what the reader takes before it pauses: the write is
    // partial, then sent back (EAGAIN), and waits to be tried again.
    const big = lineOf('a', 600 * 1024);
    sink.write([big]);
    // The reader has taken its first 100 KiB and paused: the pipe fills behind it.
    await waitUntil(() => existsSync(into) && statSync(into).size >= 100 * 1024, 40_000, 'the reader to pause');
    sink.write([lineOf('b', 1000)]);
    sink.write([lineOf('c', 1000)]);
    sink.closeSync();
    await done;
    const text = readFileSync(into, 'latin1');
    expect(text.endsWith('\n')).toBe(true);
    // Each line one letter throughout, at its length.
    const lines = text.slice(0, -1).split('\n');
    expect(lines.map((line) => `${line[0]}${line.length}`)).toEqual([`a${600 * 1024 - 1}`, 'b999', 'c999']);
    expect(lines.every((line) => line === line[0]!.repeat(line.length))).toBe(true);
  });

  it('a reader that reads on within the wait gets everything queued at the close', async () => {
    const { fifo, into, done } = pausingReader(16 * 1024, 50);
    const sink = await opened(fifo);
    const lines = Array.from({ length: 40 }, (_, index) => lineOf(String.fromCharCode(97 + (index % 26)), 8 * 1024));
    for (const line of lines) sink.write([line]);
    sink.closeSync();
    await done;
    expect(readFileSync(into)).toEqual(Buffer.concat(lines));
  });
});
