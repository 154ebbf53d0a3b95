// Acceptance: a session of the SDK 1.x client with @modelcontextprotocol/server-everything, recorded by
// the stdio spy, replays against server-everything over stdio and over Streamable HTTP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { everythingHttp, withServer } from '../helpers/http-spy.js';
import { everythingServer, node, recordSession, runBin, tempDir } from '../helpers/spy.js';

const temp = tempDir();
const record = join(temp.dir, 'wire.jsonl');
const timedRecord = join(temp.dir, 'timed.jsonl');

beforeAll(async () => {
  await recordSession('everything-client.js', record, [node, everythingServer, 'stdio']);
  await recordSession('everything-client.js', timedRecord, [node, everythingServer, 'stdio'], { SCENARIO: 'timed' });
});
afterAll(() => temp.remove());

describe('replay against server-everything', () => {
  it('exits 0 over stdio with the default ignores only, answering sampling and roots from the recording', async () => {
    const result = await runBin(['replay', record, '--format', 'json', '--', node, everythingServer, 'stdio']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const report = JSON.parse(result.text);
    expect(report.ok).toBe(true);
    expect(report.ignores).toEqual(['$.._meta', '$..createdAt', '$..lastUpdatedAt']);
    const items = report.sessions[0].items;
    const serverRequests = items.filter((item: { kind: string }) => item.kind === 'server-request');
    // roots/list comes when the get-roots-list tool asks, or from a timer 350 ms after initialization: either order.
    expect(serverRequests.map((item: { method: string; status: string }) => `${item.method} ${item.status}`).sort()).toEqual([
      'roots/list same',
      'sampling/createMessage same',
    ]);
    // The tools that depend on the server's requests answered the same: the recorded answers reached it.
    const names = items.filter((item: { kind: string }) => item.kind === 'response').map((item: { name?: string; method: string }) => item.name ?? item.method);
    expect(names).toEqual(expect.arrayContaining(['trigger-sampling-request', 'get-roots-list', 'echo', 'get-sum', 'simple-prompt']));
    expect(report.counts).toMatchObject({ changed: 0, missing: 0, extra: 0 });
  });

  it('exits 0 against server-everything over Streamable HTTP (--target), a new HTTP session per recorded session', async () => {
    await withServer(everythingHttp('streamableHttp'), /listening on port/, async (port) => {
      const result = await runBin(['replay', record, '--target', `http://127.0.0.1:${port}/mcp`]);
      expect(result.text).toMatch(/replay passed: \d+ same, 0 changed, 0 missing, 0 extra/);
      expect(result.text).toMatch(/same {4}#\d+ roots\/list \(id \d+\) \[server-request\]/);
      expect(result.code).toBe(0);
      // Over HTTP the server drops the list_changed it sends at once (no stream is open yet): the replay
      // waits for them as recorded, and says so rather than seeming to hang.
      expect(result.stderr).toMatch(
        /^mcp-spy: waiting up to \d+s more for notifications\/tools\/list_changed \(0 of \d+ so far\): the recorded server sent them before #\d+ [\w/]+ \(id \d+\)$/m,
      );
    });
  });

  it('compares notifications with --notifications; the random log level of toggle-simulated-logging needs its ignore', async () => {
    // toggle-simulated-logging sends a notifications/message at once whose level and text are picked
    // at random (server/logging.js): params.level and params.data must be ignored. Progress of
    // trigger-long-running-operation is deterministic (same steps, same token) and stays compared.
    const ignores = ['--ignore', 'params.level', '--ignore', 'params.data'];
    const result = await runBin(['replay', timedRecord, '--notifications', ...ignores, '--', node, everythingServer, 'stdio']);
    expect(result.text).toMatch(/same {4}#\d+ notifications\/progress \[notification\]/);
    expect(result.text).toMatch(/same {4}#\d+ notifications\/message \[notification\]/);
    expect(result.text).toContain('0 changed, 0 missing, 0 extra');
    expect(result.code).toBe(0);
  });
});
