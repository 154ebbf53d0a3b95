// Library use: `import { replay } from 'mcp-spy'` resolves to the same structured result the CLI prints.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { replay, ReplayError, type ReplayResult } from 'mcp-spy';
import { fixture, node, recordSession, tempDir } from '../helpers/spy.js';

const temp = tempDir();
const record = join(temp.dir, 'wire.jsonl');
const server = [node, fixture('servers', 'greet-server.js')];

beforeAll(async () => {
  await recordSession('everything-client.js', record, server, { SCENARIO: 'fixture' });
});
afterAll(() => temp.remove());

describe('replay() as a library', () => {
  it('resolves with ok and per-request items when the server answers the same', async () => {
    const result: ReplayResult = await replay({ recording: record, server });
    expect(result.ok).toBe(true);
    expect(result.counts).toEqual({ same: 4, changed: 0, missing: 0, extra: 0 });
    expect(result.sessions[0]!.items.map((item) => `${item.status} ${item.method} ${item.name ?? ''}`.trim())).toEqual([
      'same initialize',
      'same tools/list',
      'same tools/call greet',
      'same tools/call add',
    ]);
  });

  it('names the changed path, and honours ignore', async () => {
    const changed = await replay({ recording: record, server: [...server, '--changed'] });
    expect(changed.ok).toBe(false);
    expect(changed.sessions[0]!.items.find((item) => item.status === 'changed')?.diff).toEqual([
      { path: 'result.content[0].text', change: 'changed', recorded: 'Hello, Ada!', actual: 'Hi there, Ada.' },
    ]);
    const ignored = await replay({ recording: record, server: [...server, '--changed'], ignore: ['$..text'] });
    expect(ignored.ok).toBe(true);
  });

  it('rejects with a ReplayError on bad input', async () => {
    await expect(replay({ recording: join(temp.dir, 'none.jsonl'), server })).rejects.toThrow(ReplayError);
    await expect(replay({ recording: record })).rejects.toThrow(/give the server command/);
  });
});
