import { closeSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { controlLength, controlSlots } from '../../src/observer/channel/channel-messages.js';
import { createSpill, readSpilled, type SpillPlace } from '../../src/observer/channel/spill.js';
import { tempDir } from '../helpers/spy.js';

const control = () => new BigInt64Array(new SharedArrayBuffer(8 * controlLength));

/** Node 20 has it; the TypeScript library the project targets does not declare it yet. */
const { waitAsync } = Atomics as typeof Atomics & { waitAsync(array: BigInt64Array, index: number, value: bigint): { value: Promise<string> | string } };

/** Resolves once `done` holds, waking at each of the spill's writes (they run on Node's I/O threads and notify when they end). */
async function whenWritten(shared: BigInt64Array, done: () => boolean) {
  while (!done()) await waitAsync(shared, controlSlots.spillWritten, Atomics.load(shared, controlSlots.spillWritten)).value;
}

/** Resolves once the spill has written `upTo` bytes. */
const written = (shared: BigInt64Array, upTo: number) => whenWritten(shared, () => Atomics.load(shared, controlSlots.spillWritten) >= BigInt(upTo));

const never = () => false;

describe("the forwarding side's spill", () => {
  it('gives back each chunk from its place, in order, once written; the file has no name in the directory', async () => {
    const dir = tempDir().dir;
    const shared = control();
    const spill = createSpill([dir], shared);
    const chunks = ['{"a":1}\n', 'x'.repeat(300 * 1024), '\n', 'last\n'].map((text) => Buffer.from(text));
    const places = chunks.map((chunk) => spill.put(chunk)!);
    expect(places.map((place) => place.at)).toEqual([0, 8, 8 + 300 * 1024, 9 + 300 * 1024]);
    expect(places.at(-1)!.upTo).toBe(chunks.reduce((sum, chunk) => sum + chunk.length, 0));
    // Nothing is written before the batch that names them goes.
    expect(Atomics.load(shared, controlSlots.spillWritten)).toBe(0n);
    spill.flush();
    await written(shared, places.at(-1)!.upTo);
    expect(places.map((place) => readSpilled(shared, place, never)?.toString())).toEqual(chunks.map(String));
    // Unlinked as soon as it was open: no one else can open it, and nothing is left behind.
    expect(readdirSync(dir)).toEqual([]);
    spill.close();
  });

  it('starts the file over once everything in it was read back, and counts on', async () => {
    const shared = control();
    const spill = createSpill([tempDir().dir], shared);
    const first = spill.put(Buffer.from('one\n'))!;
    spill.flush();
    await written(shared, first.upTo);
    spill.readBack(first.length);
    const second = spill.put(Buffer.from('two\n'))!;
    expect(second).toMatchObject({ at: 0, upTo: 8 });
    spill.flush();
    await written(shared, second.upTo);
    expect(readSpilled(shared, second, never)?.toString()).toBe('two\n');
    // Not while something is still to be read back.
    const third = spill.put(Buffer.from('three\n'))!;
    expect(third.at).toBe(4);
    spill.close();
  });

  it('takes nothing when no directory will hold its file, or once a write failed', async () => {
    const dir = tempDir().dir;
    const missing = join(dir, 'gone');
    expect(createSpill([missing], control()).put(Buffer.from('x\n'))).toBeUndefined();
    // The next directory is tried.
    const usable = join(dir, 'usable');
    mkdirSync(usable);
    expect(createSpill([missing, usable], control()).put(Buffer.from('x\n'))).toMatchObject({ at: 0, length: 2 });
    // A write that fails (its descriptor closed under it) marks the spill failed: the observer counts what it named as lost.
    const shared = control();
    const spill = createSpill([usable], shared);
    const place = spill.put(Buffer.from('lost\n'))!;
    closeSync(place.fd);
    spill.flush();
    await whenWritten(shared, () => Atomics.load(shared, controlSlots.spillFailed) !== 0n);
    expect(spill.put(Buffer.from('more\n'))).toBeUndefined();
    expect(readSpilled(shared, place, never)).toBeUndefined();
  });

  it('refuses past 32 MiB waiting to be written, rather than hold the traffic in memory', () => {
    const spill = createSpill([tempDir().dir], control());
    const chunk = Buffer.alloc(1024 * 1024, 0x61);
    const places: (SpillPlace | undefined)[] = [];
    for (let index = 0; index < 33; index++) places.push(spill.put(chunk));
    expect(places.filter(Boolean)).toHaveLength(32);
    expect(places.at(-1)).toBeUndefined();
    spill.close();
  });

  it('the observer gives up waiting for bytes not yet written once its time to finish is over', () => {
    const shared = control();
    const spill = createSpill([tempDir().dir], shared);
    const place = spill.put(Buffer.from('late\n'))!;
    // Never flushed: the observer would wait for ever, but the deadline has passed.
    expect(readSpilled(shared, place, () => true)).toBeUndefined();
    spill.close();
  });
});
