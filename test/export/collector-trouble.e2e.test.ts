import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { everythingServer, node, readEntries, runBin, tempDir } from '../helpers/spy.js';

/** A reason phrase with a right-to-left override and a terminal escape, as a hostile collector may send. */
const hostileReason = Buffer.from('\u202eevil\u001b[2J', 'utf8');

/** A collector in trouble on 127.0.0.1: one that takes requests and never answers, or answers an error. */
async function troubledCollector(answer: 'never' | 500 | 400 | 'hostile'): Promise<{ url: string; requests: () => number; close: () => Promise<void> }> {
  let requests = 0;
  const server: Server = createServer((request) => {
    requests++;
    request.resume();
    const reason = answer === 'hostile' ? Buffer.concat([Buffer.from('HTTP/1.1 400 '), hostileReason]) : Buffer.from(`HTTP/1.1 ${answer} Trouble`);
    if (answer !== 'never') request.on('end', () => request.socket.end(Buffer.concat([reason, Buffer.from('\r\ncontent-length: 0\r\n\r\n')])));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    requests: () => requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const initialize = {
  jsonrpc: '2.0',
  id: 0,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '1' } },
};
const session = `${[initialize, { jsonrpc: '2.0', method: 'notifications/initialized' }, { jsonrpc: '2.0', id: 1, method: 'tools/list' }].map((frame) => JSON.stringify(frame)).join('\n')}\n`;

describe('a live spy whose collector is in trouble', () => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });

  it.each([['never' as const], [500 as const], [400 as const], ['hostile' as const]])(
    'answering %s: the traffic as without it, one line on stderr, the record whole with the count',
    async (answer) => {
      const collector = await troubledCollector(answer);
      const dir = tempDir();
      cleanups.push(
        () => collector.close(),
        () => dir.remove(),
      );
      const record = join(dir.dir, 'wire.jsonl');
      const direct = await runBin(['--no-record', '--no-log', '-q', '--', node, everythingServer, 'stdio'], { input: session });
      const spied = await runBin(['--record', record, '--no-log', '-q', '--otlp', collector.url, '--', node, everythingServer, 'stdio'], { input: session });
      expect(spied.code).toBe(0);
      // The same answers, byte for byte but for the server's own timing-free text.
      expect(spied.text.split('\n').map((line) => line.length)).toEqual(direct.text.split('\n').map((line) => line.length));
      expect(collector.requests()).toBeGreaterThan(0);
      const lines = spied.stderr.split('\n').filter((line) => line.startsWith('mcp-spy:'));
      expect(lines, spied.stderr).toHaveLength(1);
      expect(lines[0]).toMatch(/^mcp-spy: cannot export spans to http:\/\/127\.0\.0\.1:\d+\/v1\/traces: .+; the traffic is not affected/);
      // Whatever the collector said, nothing reaches the terminal that could move, recolour or reorder it.
      expect(spied.stderr).not.toMatch(/[\u001b\u0080-\u009f\u202a-\u202e]/);
      const entries = readEntries(record);
      // Waiting for the collector must not cost the record its end: no gap, one exit, seqs in order.
      expect(entries.map((entry) => entry.kind)).not.toContain('gap');
      expect(entries.filter((entry) => entry.kind === 'exit')).toHaveLength(1);
      expect(entries.map((entry) => entry.seq)).toEqual(entries.map((_, index) => index + 1));
      const note = entries.find((entry) => entry.kind === 'note');
      expect(note?.notes).toEqual(['spans-dropped']);
      // initialize, tools/list and the session's own span.
      expect(note?.lost).toBe(3);
    },
  );
});
