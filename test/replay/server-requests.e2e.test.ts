// A recording with a server-to-client request (roots/list): answered from the recording, matched
// whatever id the server gives it; a request that went away is missing, a new one is extra.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { fixture, node, recordSession, runBin, tempDir } from '../helpers/spy.js';

const temp = tempDir();
const record = join(temp.dir, 'roots.jsonl');
const plainRecord = join(temp.dir, 'plain.jsonl');
const server = (...flags: string[]) => [node, fixture('servers', 'greet-server.js'), ...flags];

beforeAll(async () => {
  const [withRoots] = await Promise.all([
    recordSession('everything-client.js', record, server('--ask-roots'), { SCENARIO: 'fixture' }),
    recordSession('everything-client.js', plainRecord, server(), { SCENARIO: 'fixture' }),
  ]);
  // The server got the client's roots: its greeting names them.
  expect(withRoots).toMatchObject({ greet: { content: [{ text: 'Hello, Ada! (roots: project)' }] } });
});
afterAll(() => temp.remove());

describe('server-to-client requests in replay', () => {
  it('answers the server’s roots/list from the recording: the tool that depends on it answers the same', async () => {
    const result = await runBin(['replay', record, '--', ...server('--ask-roots')]);
    expect(result.text).toMatch(/same {4}#7 tools\/call greet \(id 2\) \d+ms\n {2}same {4}#8 roots\/list \(id 0\) \[server-request\]\n/);
    expect(result.code).toBe(0);
  });

  it('maps ids: a server that pings first (roots/list becomes id 1) still matches', async () => {
    const result = await runBin(['replay', record, '--', ...server('--ask-roots', '--ping-first')]);
    expect(result.text).toContain('replay passed: 5 same, 0 changed, 0 missing, 0 extra');
    expect(result.code).toBe(0);
  });

  it('sends as recorded with --concurrency', async () => {
    const result = await runBin(['replay', record, '--concurrency', '--', ...server('--ask-roots')]);
    expect(result.text).toContain('replay passed: 5 same');
    expect(result.code).toBe(0);
  });

  it('reports a server request that went away as missing, and a new one as extra', async () => {
    const gone = await runBin(['replay', record, '--timeout', '1s', '--', ...server()]);
    expect(gone.text).toMatch(/missing #8 roots\/list \(id 0\) \[server-request\]: the server did not make this request\n/);
    expect(gone.code).toBe(1);
    const added = await runBin(['replay', plainRecord, '--timeout', '1s', '--', ...server('--ask-roots')]);
    expect(added.text).toMatch(/extra {3}roots\/list \(id 0\) \[server-request\]: not in the recording \(answered with an error\)\n/);
    expect(added.text).toContain('result.content[0].text: "Hello, Ada!" -> "MCP error -32601: mcp-spy replay: the recording has no answer to roots/list"');
    expect(added.code).toBe(1);
  });
});
