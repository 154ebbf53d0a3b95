// The one reader of the control socket's JSON lines, which the spy, the console and the tests share.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { readControlLines } from '../../src/faults/control-lines.js';

const cleanup: (() => void)[] = [];
afterEach(() => {
  for (const step of cleanup.splice(0)) step();
});

/** A connected pair of sockets over a Unix socket in a fresh directory: what the reader reads, and what writes to it. */
async function pair(): Promise<{ reader: Socket; writer: Socket }> {
  const dir = mkdtempSync(join(tmpdir(), 'control-lines-'));
  const path = join(dir, 'c.sock');
  const accepted = new Promise<Socket>((resolve) => {
    const server = createServer(resolve).listen(path);
    cleanup.push(() => {
      server.close();
      rmSync(dir, { recursive: true, force: true });
    });
  });
  const writer = connect(path);
  const reader = await accepted;
  cleanup.push(() => {
    writer.destroy();
    reader.destroy();
  });
  return { reader, writer };
}

describe('readControlLines', () => {
  it('hands over whole lines in order, a line split over writes once, blank lines not at all', async () => {
    const { reader, writer } = await pair();
    const lines: string[] = [];
    readControlLines(reader, (line) => lines.push(line));
    writer.write('{"a":1}\n\n  \n{"b":');
    writer.write('2}\n{"c":"é');
    writer.write('"}\n');
    await vi.waitFor(() => expect(lines).toEqual(['{"a":1}', '{"b":2}', '{"c":"é"}']));
  });

  it('closes the connection on a line that grows past its bound without an end', async () => {
    const { reader, writer } = await pair();
    const lines: string[] = [];
    readControlLines(reader, (line) => lines.push(line), 1024);
    const closed = new Promise((resolve) => reader.once('close', resolve));
    writer.on('error', () => {});
    writer.write('{"ok":1}\n');
    writer.write('x'.repeat(4096));
    await closed;
    expect(lines).toEqual(['{"ok":1}']);
  });
});
