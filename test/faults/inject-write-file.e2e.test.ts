// An answer made in the server's place never reaches it: a tool-error injected on write_file writes no file.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, it } from 'vitest';
import { bin, root, tempDir } from '../helpers/spy.js';

const filesystemServer = join(root, 'node_modules', '@modelcontextprotocol', 'server-filesystem', 'dist', 'index.js');

async function writeThroughSpy(dir: string, faultArgs: string[]) {
  const client = new Client({ name: 'fault-client', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [bin, '--record', join(dir, 'wire.jsonl'), '--no-log', '-q', ...faultArgs, '--', process.execPath, filesystemServer, dir],
      env: process.env as Record<string, string>,
      stderr: 'ignore',
    }),
  );
  const results = [];
  for (const name of ['first.txt', 'second.txt']) {
    results.push(await client.callTool({ name: 'write_file', arguments: { path: join(dir, name), content: `content of ${name}` } }));
  }
  await client.close();
  return results;
}

describe('tool-error on write_file, with server-filesystem', () => {
  it("answers the second call in the server's place: the first file is written, the second never is", async () => {
    const { dir } = tempDir();
    const results = await writeThroughSpy(dir, ['--fault', 'tools/call tool=write_file nth=2: tool-error "disk full"']);
    expect(results[0]).not.toHaveProperty('isError', true);
    expect(results[1]).toEqual({ content: [{ type: 'text', text: 'disk full' }], isError: true });
    expect(readFileSync(join(dir, 'first.txt'), 'utf8')).toBe('content of first.txt');
    expect(existsSync(join(dir, 'second.txt'))).toBe(false);
  });
});
