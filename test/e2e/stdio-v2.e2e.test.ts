import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { describe, expect, it } from 'vitest';
import { eventually } from '../helpers/http-spy.js';
import { bin, fixture, framesOf, readEntries, tempDir, type TestEntry } from '../helpers/spy.js';

async function session(command: string, args: string[]) {
  const client = new Client({ name: 'v2-e2e-client', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
  await client.connect(new StdioClientTransport({ command, args, env: process.env as Record<string, string>, stderr: 'ignore' }));
  const results = {
    version: client.getNegotiatedProtocolVersion(),
    tools: await client.listTools(),
    echo: await client.callTool({ name: 'echo', arguments: { message: 'hi there' } }),
    fail: await client.callTool({ name: 'fail', arguments: {} }),
    resource: await client.readResource({ uri: 'demo://readme' }),
    prompt: await client.getPrompt({ name: 'greet', arguments: { name: 'Ada' } }),
  };
  await client.close();
  return results;
}

describe('a 2026-07-28 session (v2 client in auto mode, v2 server)', () => {
  it('records the probe run and the session run, each with its revision', async () => {
    const direct = await session(process.execPath, [fixture('v2', 'server.js')]);
    const dir = tempDir().dir;
    const record = join(dir, 'wire.jsonl');
    const spied = await session(process.execPath, [
      bin,
      '--record',
      record,
      '--log',
      join(dir, 'wire.log'),
      '--',
      process.execPath,
      fixture('v2', 'server.js'),
    ]);
    expect(spied).toEqual(direct);
    expect(spied.version).toBe('2026-07-28');

    // Both spies may still be writing their exit events; wait for two.
    const entries: TestEntry[] = await eventually(() => {
      const all = readEntries(record);
      return all.filter((entry) => entry.kind === 'exit').length >= 2 ? all : undefined;
    });
    const sessions = [...new Set(entries.map((entry) => entry.session))];
    expect(sessions).toHaveLength(2);
    const [probe, main] = sessions.map((id) => entries.filter((entry) => entry.session === id));

    expect(probe!.map((entry) => [entry.kind, entry.method])).toEqual([
      ['spawn', undefined],
      ['request', 'server/discover'],
      ['response', 'server/discover'],
      ['exit', undefined],
    ]);
    expect(framesOf(probe!).every((entry) => entry.rev === '2026-07-28')).toBe(true);

    const mainFrames = framesOf(main!);
    expect(mainFrames[0]).toMatchObject({ kind: 'request', method: 'tools/list', rev: '2026-07-28', revChanged: true });
    expect(mainFrames.map((entry) => entry.kind)).toEqual([
      'request',
      'response',
      'request',
      'response',
      'request',
      'tool-error',
      'request',
      'response',
      'request',
      'response',
    ]);
    expect(mainFrames.every((entry) => entry.rev === '2026-07-28')).toBe(true);
    expect(mainFrames.some((entry) => entry.method === 'initialize')).toBe(false);
    expect(readFileSync(join(dir, 'wire.log'), 'utf8')).toContain('rev=2026-07-28');
  });
});
