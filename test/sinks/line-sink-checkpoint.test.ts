import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openLineSink } from '../../src/sinks/line-sink.js';
import { tempDir } from '../helpers/spy.js';

describe("a line sink's checkpoints", () => {
  it('are reached once the lines before them are written, in order, never before', async () => {
    const path = join(tempDir().dir, 'wire.jsonl');
    const sink = openLineSink(path);
    const reached: string[] = [];
    sink.write('a\n');
    sink.checkpoint(() => {
      reached.push('one');
    });
    sink.write(['b', Buffer.from('c'), '\n']);
    sink.checkpoint(() => {
      reached.push('two');
    });
    expect(reached).toEqual([]);
    await sink.flush();
    // Only the last of a write is said: each sums up those before it.
    expect(reached).toEqual(['two']);
    sink.write('d\n');
    sink.checkpoint(() => {
      reached.push('three');
    });
    sink.closeSync();
    expect(reached).toEqual(['two', 'three']);
    expect(readFileSync(path, 'utf8')).toBe('a\nbc\nd\n');
  });

  it('end the writes: lines past the size of one write still go with the checkpoint after them', async () => {
    const path = join(tempDir().dir, 'wire.jsonl');
    const sink = openLineSink(path);
    const line = `${'x'.repeat(1023)}\n`;
    let onFile = -1;
    let issued = false;
    for (let index = 0; index < 1500; index++) sink.write(line);
    sink.checkpoint(() => {
      onFile = 1500 * 1024;
      // Said once the write is issued: until then the forwarding side knows it is under way.
      return () => (issued = true);
    });
    sink.write('tail\n');
    await sink.flush();
    expect(onFile).toBe(1500 * 1024);
    expect(issued).toBe(true);
    expect(readFileSync(path).length).toBe(1500 * 1024 + 5);
    sink.closeSync();
  });
});

describe('a line sink writing a large line', () => {
  it('writes it from its pieces, whole and in order between the others, and reaches the checkpoint after it', async () => {
    const path = join(tempDir().dir, 'wire.jsonl');
    const sink = openLineSink(path);
    const big = Buffer.alloc(3 * 1024 * 1024, 'z');
    const reached: string[] = [];
    sink.write('a\n');
    sink.write(['{"raw":"', big.subarray(0, 1024 * 1024), big.subarray(1024 * 1024), '"}\n']);
    sink.checkpoint(() => {
      reached.push('big');
    });
    sink.write('b\n');
    await sink.flush();
    expect(reached).toEqual(['big']);
    expect(readFileSync(path, 'utf8')).toBe(`a\n{"raw":"${big.toString()}"}\nb\n`);
  });
});
