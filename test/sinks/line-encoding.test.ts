import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Checkpoint, encodeLines, gatherLines, type Queued } from '../../src/sinks/line-encoding.js';
import { openLineSink } from '../../src/sinks/line-sink.js';
import { tempDir } from '../helpers/spy.js';

/** A captured span's line as the recorder makes it: one buffer of hundreds of KiB. */
const spanLine = (size: number, fill: number) => {
  const line = Buffer.alloc(size, fill);
  line[size - 1] = 0x0a;
  return line;
};

describe("a line sink's writes", () => {
  const big = spanLine(300 * 1024, 0x61);
  const spliced = Buffer.alloc(80 * 1024, 0x62);
  const queue: Queued[] = ['{"a":1}\n', [big], new Checkpoint(() => {}), ['{"msg":', spliced, '}\n'], ['é', Buffer.from('small'), '\n'], '{"z":2}\n'];
  const whole = Buffer.concat([Buffer.from('{"a":1}\n'), big, Buffer.from('{"msg":'), spliced, Buffer.from('}\n'), Buffer.from('ésmall\n{"z":2}\n')]);

  it('write a large buffer from where it is, text and small pieces copied around it, in order', () => {
    const buffers = gatherLines(queue, 0, queue.length);
    // The span's line and the spliced frame are not copied: the flood's bytes are copied once less.
    expect(buffers).toHaveLength(5);
    expect(buffers[1]).toBe(big);
    expect(buffers[3]).toBe(spliced);
    expect(Buffer.concat(buffers).equals(whole)).toBe(true);
    // A batch of small lines is still one buffer, as a write at exit takes it.
    expect(gatherLines(['a\n', ['b', Buffer.from('c'), '\n']], 0, 2)).toEqual([Buffer.from('a\nbc\n')]);
    expect(encodeLines(queue, 0, queue.length).equals(whole)).toBe(true);
    expect(gatherLines([new Checkpoint(() => {})], 0, 1)).toEqual([Buffer.alloc(0)]);
  });

  it('put the same bytes on file as one buffer would', async () => {
    const path = join(tempDir().dir, 'wire.jsonl');
    const sink = openLineSink(path);
    for (const line of queue) if (!(line instanceof Checkpoint)) sink.write(line);
    for (let index = 0; index < 20; index++) sink.write([spanLine(100 * 1024 + index, 0x30 + index)]);
    await sink.flush();
    sink.closeSync();
    const expected = Buffer.concat([whole, ...Array.from({ length: 20 }, (_, index) => spanLine(100 * 1024 + index, 0x30 + index))]);
    expect(readFileSync(path).equals(expected)).toBe(true);
  });
});
