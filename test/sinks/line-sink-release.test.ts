import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { openLineSink } from '../../src/sinks/line-sink.js';
import { tempDir } from '../helpers/spy.js';

/** A full collection, where the flag can be set at run time (as the spy's own GC pacing does). */
function collect() {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

describe('a line sink', () => {
  it('lets go of the lines it has written while later ones still wait (a captured span line is hundreds of KiB)', async () => {
    const path = join(tempDir().dir, 'wire.jsonl');
    const sink = openLineSink(path, { maxQueued: 256 * 1024 * 1024 });
    const lineBytes = 300 * 1024;
    const count = 300;
    const written: WeakRef<Buffer>[] = [];
    for (let index = 0; index < count; index++) {
      const line = Buffer.alloc(lineBytes, 0x61);
      line[lineBytes - 1] = 0x0a;
      if (index < 50) written.push(new WeakRef(line));
      sink.write([line]);
    }
    // The first lines are on file, and many are still queued behind them.
    await sink.whenBelow((count / 2) * lineBytes);
    expect(sink.queued).toBeGreaterThan(lineBytes * 10);
    collect();
    const held = written.filter((ref) => ref.deref() !== undefined).length;
    await sink.flush();
    sink.closeSync();
    // Before, a written line's slot kept it until 4,096 had been written: all 50 were held.
    expect(held).toBe(0);
  });
});
