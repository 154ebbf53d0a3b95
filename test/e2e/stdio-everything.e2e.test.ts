import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CreateMessageRequestSchema, ElicitRequestSchema, ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { eventually } from '../helpers/http-spy.js';
import { bin, everythingServer, fixture, framesOf, readEntries, tempDir } from '../helpers/spy.js';
import { frameText } from '../../src/record/frame-message.js';

const sha = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

/** One session of the official client with sampling, roots and elicitation, as a user would run it. */
async function session(command: string, args: string[], beforeClose?: () => Promise<unknown>) {
  const client = new Client({ name: 'e2e-client', version: '1.0.0' }, { capabilities: { sampling: {}, roots: { listChanged: true }, elicitation: {} } });
  client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: [{ uri: 'file:///tmp/project', name: 'project' }] }));
  client.setRequestHandler(CreateMessageRequestSchema, async () => ({
    role: 'assistant',
    content: { type: 'text', text: 'a sampled answer' },
    model: 'test-model',
  }));
  client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'decline' }));
  const transport = new StdioClientTransport({ command, args, env: process.env as Record<string, string>, stderr: 'ignore' });
  await client.connect(transport);
  const progress: unknown[] = [];
  const results = {
    server: client.getServerVersion(),
    tools: (await client.listTools()).tools.map((tool) => tool.name).sort(),
    echo: await client.callTool({ name: 'echo', arguments: { message: 'hello' } }),
    sum: await client.callTool({ name: 'get-sum', arguments: { a: 2, b: 40 } }),
    image: await client.callTool({ name: 'get-tiny-image', arguments: {} }),
    structured: await client.callTool({ name: 'get-structured-content', arguments: { location: 'Chicago' } }),
    long: await client.callTool({ name: 'trigger-long-running-operation', arguments: { duration: 0.4, steps: 2 } }, undefined, {
      onprogress: (p) => progress.push(p),
    }),
    sampling: await client.callTool({ name: 'trigger-sampling-request', arguments: { prompt: 'hi', maxTokens: 10 } }),
    resources: (await client.listResources()).resources.map((resource) => resource.uri),
    prompts: (await client.listPrompts()).prompts.map((prompt) => prompt.name),
    prompt: await client.getPrompt({ name: 'args-prompt', arguments: { city: 'Paris', state: 'IDF' } }),
    missing: await client.callTool({ name: 'no-such-tool', arguments: {} }).catch((error: Error) => ({ thrown: error.message })),
  };
  const resource = await client.readResource({ uri: results.resources[0]! });
  await beforeClose?.();
  await client.close();
  return { ...results, resource, progress };
}

/**
 * Waits until the record holds the session's last answer before the client closes: the client
 * gives the spy 2 s after closing before it sends SIGTERM, and the spy then cuts its finishing
 * short (a gap). The observer, at a low priority, may be further behind than that on a busy machine.
 */
const recorded = (record: string) => () =>
  eventually(() => framesOf(readEntries(record)).find((entry) => entry.dir === 's2c' && entry.method === 'resources/read'));

describe('the SDK client and server-everything, through the spy', () => {
  it('gets the same results, the record holds every frame, and each side receives exactly what the other sent', async () => {
    const direct = await session(process.execPath, [everythingServer, 'stdio']);
    const dir = tempDir().dir;
    const record = join(dir, 'wire.jsonl');
    const spied = await session(
      process.execPath,
      [
        fixture('tap.js'),
        dir,
        'client',
        process.execPath,
        bin,
        '--record',
        record,
        '--log',
        join(dir, 'wire.log'),
        '--',
        process.execPath,
        fixture('tap.js'),
        dir,
        'server',
        process.execPath,
        everythingServer,
        'stdio',
      ],
      recorded(record),
    );
    // Progress that arrives with the result may be dropped by the client itself, direct or not:
    // compare the results, and check the progress in the record instead.
    const { progress: spiedProgress, ...spiedResults } = spied;
    const { progress: _directProgress, ...directResults } = direct;
    expect(spiedResults).toEqual(directResults);
    expect(spiedProgress.length).toBeGreaterThan(0);

    expect(sha(join(dir, 'client.in'))).toBe(sha(join(dir, 'server.in')));
    expect(sha(join(dir, 'server.out'))).toBe(sha(join(dir, 'client.out')));

    const entries = readEntries(record);
    const seen = framesOf(entries);
    // Every line that crossed, in order, is a frame of the record with its exact text.
    const lines = (path: string) =>
      readFileSync(path, 'utf8')
        .split('\n')
        .filter((line) => line !== '');
    expect(seen.filter((entry) => entry.dir === 'c2s').map((entry) => frameText(entry))).toEqual(lines(join(dir, 'server.in')));
    expect(seen.filter((entry) => entry.dir === 's2c').map((entry) => frameText(entry))).toEqual(lines(join(dir, 'server.out')));
    expect(entries[0]).toMatchObject({ kind: 'spawn', seq: 1 });
    expect(entries.map((entry) => entry.seq)).toEqual(entries.map((_, index) => index + 1));
    expect(new Set(entries.map((entry) => entry.session)).size).toBe(1);

    const kindOf = (predicate: (entry: (typeof seen)[number]) => boolean) => seen.filter(predicate).map((entry) => entry.kind);
    expect(kindOf((entry) => entry.method === 'initialize')).toEqual(['request', 'response']);
    expect(kindOf((entry) => entry.tool === 'no-such-tool')).toEqual(['request', expect.stringMatching(/tool-error|protocol-error/)]);
    expect(kindOf((entry) => entry.method === 'sampling/createMessage')).toEqual(['request', 'response']);
    expect(seen.find((entry) => entry.method === 'sampling/createMessage' && entry.kind === 'request')!.dir).toBe('s2c');
    const progress = seen.filter((entry) => entry.method === 'notifications/progress');
    expect(progress.length).toBe(2);
    expect(progress.every((entry) => entry.related?.tool === 'trigger-long-running-operation')).toBe(true);
    const longResult = seen.find((entry) => entry.dir === 's2c' && entry.tool === 'trigger-long-running-operation')!;
    expect(progress.every((entry) => entry.seq < longResult.seq)).toBe(true);
    expect(seen.filter((entry) => entry.kind === 'response' || entry.kind === 'tool-error').every((entry) => typeof entry.latencyMs === 'number')).toBe(true);
    expect(seen.filter((entry) => entry.kind === 'invalid')).toEqual([]);
    expect(seen.filter((entry) => entry.notes?.includes('orphan-response'))).toEqual([]);
    expect(entries.filter((entry) => entry.kind === 'unanswered')).toEqual([]);
    expect(seen.at(-1)!.rev).toBe(seen.find((entry) => entry.method === 'initialize' && entry.dir === 's2c')!.rev);
  });
});
