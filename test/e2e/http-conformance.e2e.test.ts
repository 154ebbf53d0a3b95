// The MCP conformance suite's client scenarios (its own test servers, with their own OAuth
// authorization servers) run twice with the same SDK client: direct, and with the HTTP spy in
// between. Every check must come out the same: discovery, registration, authorization, token and
// the authorized MCP calls all work through the spy, and the record says what the spy rewrote.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture, node, readEntries, root, type TestEntry } from '../helpers/spy.js';

const suite = join(root, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
const shim = pathToFileURL(join(root, 'test', 'helpers', 'node20-fs-glob.mjs')).href;
const client = `${node} ${fixture('clients', 'conformance-client.js')}`;
const throughSpy = `${node} ${fixture('clients', 'through-spy.js')} ${client}`;
/**
 * Every client scenario: the suite runs them in parallel. sse-retry measures how soon the client
 * reconnects against a tolerance of 200 ms, which a loaded machine misses with or without the spy.
 */
const selection = ['--suite', 'all'];
const timingOnly = new Set(['sse-retry']);

/** Runs the suite's client scenarios with `command` as the client, writing results under `out`. */
function runSuite(command: string, selection: string[], out: string, env: NodeJS.ProcessEnv = {}): Promise<void> {
  // Each scenario's own time: the suite runs them all at once, each a client (and a spy) to start,
  // and its default (30 s) is missed on a busy machine, a scenario then cut short.
  const args = [suite, 'client', '--command', command, ...selection, '-o', out, '--timeout', '120000'];
  const child = spawn(node, args, { cwd: out, env: { ...process.env, ...env, NODE_OPTIONS: `--import ${shim}` }, stdio: 'ignore' });
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

/** What each scenario's client said on stderr, by scenario: the why of a check that went missing. */
const clientStderr = new Map<string, string>();

/** Each scenario's checks as `id status`, sorted; INFO lines only narrate the traffic. */
function checksOf(out: string, side: string): Map<string, string[]> {
  const scenarios = new Map<string, string[]>();
  for (const file of readdirSync(out, { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('checks.json'))) {
    const scenario = relative(out, dirname(join(out, file))).replace(/-\d{4}-\d\d-\d\dT[\d-]+Z$/, '');
    if (timingOnly.has(scenario)) continue;
    const checks = JSON.parse(readFileSync(join(out, file), 'utf8')) as { id: string; status: string }[];
    scenarios.set(
      scenario,
      checks
        .filter((check) => check.status !== 'INFO')
        .map((check) => `${check.id} ${check.status}`)
        .sort(),
    );
    const stderr = join(out, dirname(file), 'stderr.txt');
    if (existsSync(stderr)) clientStderr.set(`${side} ${scenario}`, readFileSync(stderr, 'utf8').slice(-2000));
  }
  return scenarios;
}

const passing = (scenarios: Map<string, string[]>) =>
  [...scenarios]
    .filter(([, checks]) => checks.length > 0 && checks.every((check) => check.endsWith(' SUCCESS')))
    .map(([name]) => name)
    .sort();

describe('conformance client scenarios, direct and through the spy', () => {
  const dirs = { direct: '', spy: '', records: '' };
  let direct: Map<string, string[]>;
  let spied: Map<string, string[]>;
  let records: TestEntry[];

  beforeAll(async () => {
    for (const key of Object.keys(dirs) as (keyof typeof dirs)[]) dirs[key] = mkdtempSync(join(tmpdir(), `mcp-spy-conformance-${key}-`));
    // One after the other: on a small machine two parallel suites miss their own timeouts. Alone this
    // takes about two minutes; beside the other test files on two cores, up to twice that.
    await runSuite(client, selection, dirs.direct);
    await runSuite(throughSpy, selection, dirs.spy, { MCP_SPY_DIR: dirs.records });
    direct = checksOf(dirs.direct, 'direct');
    spied = checksOf(dirs.spy, 'spy');
    // A scenario whose outcome differs is run again, alone, both ways: some twenty at once, each a
    // client, a spy and servers in one process, can cut one short on a busy machine (a login whose
    // steps outlast the suite's own servers' patience), direct or through the spy. A difference the
    // spy makes comes back alone; one the load made does not.
    for (const [scenario, checks] of [...direct]) {
      if (JSON.stringify(spied.get(scenario)) === JSON.stringify(checks) || timingOnly.has(scenario)) continue;
      console.log(`${scenario}: ${spied.get(scenario)?.length ?? 0} checks through the spy, ${checks.length} direct; run again alone`);
      const again = { direct: mkdtempSync(join(dirs.direct, 'again-')), spy: mkdtempSync(join(dirs.spy, 'again-')) };
      await runSuite(client, ['--scenario', scenario], again.direct);
      await runSuite(throughSpy, ['--scenario', scenario], again.spy, { MCP_SPY_DIR: dirs.records });
      direct.set(scenario, checksOf(again.direct, 'direct').get(scenario) ?? []);
      spied.set(scenario, checksOf(again.spy, 'spy').get(scenario) ?? []);
    }
    // Every spy appends to the one record there.
    records = readEntries(join(dirs.records, 'wire.jsonl'));
  }, 600_000);
  afterAll(() => {
    for (const dir of Object.values(dirs)) if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('runs every auth scenario, initialize and tools_call, most of them passing direct', () => {
    expect([...direct.keys()]).toEqual(
      expect.arrayContaining([
        'initialize',
        'tools_call',
        'auth/metadata-default',
        'auth/metadata-var3',
        'auth/token-endpoint-auth-post',
        'auth/pre-registration',
        'auth/2025-03-26-oauth-metadata-backcompat',
        'auth/client-credentials-basic',
      ]),
    );
    expect([...direct.keys()].filter((name) => name.startsWith('auth/')).length).toBeGreaterThanOrEqual(22);
    expect(passing(direct).length).toBeGreaterThanOrEqual(20);
  });

  it('gives every check through the spy the outcome it has direct', () => {
    expect([...spied.keys()].sort()).toEqual([...direct.keys()].sort());
    // One scenario at a time, so that a failure names it.
    for (const [scenario, checks] of direct) {
      const said = `${scenario}\nthe client through the spy said:\n${clientStderr.get(`spy ${scenario}`)}\ndirect:\n${clientStderr.get(`direct ${scenario}`)}`;
      expect(spied.get(scenario), said).toEqual(checks);
    }
  });

  it('records what it rewrote: the metadata and the challenge, as the server said them and as the client got them', () => {
    const rewrites = records.flatMap((entry) =>
      entry.kind === 'http' && Array.isArray(entry.rewrites) ? (entry.rewrites as { at: string; from: string; to: string }[]) : [],
    );
    expect(rewrites).toContainEqual({
      at: 'metadata',
      from: expect.stringMatching(/^http:\/\/localhost:\d+\/mcp$/),
      to: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/),
    });
    expect(rewrites).toContainEqual({
      at: 'www-authenticate',
      from: expect.stringContaining('resource_metadata="http://localhost:'),
      to: expect.stringContaining('resource_metadata="http://127.0.0.1:'),
    });
  });
});
