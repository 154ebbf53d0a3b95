// The commands that behaved unlike the others: export's one-line errors and --debug, help of an unknown
// command, option errors, help texts, a collector that is not there, a mock miss, diff's answers.
import { execFile } from 'node:child_process';
import { copyFileSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { fixture, node, readEntries, root, runBin, tempDir } from '../helpers/spy.js';

const temp = tempDir('mcp-spy-uniform-');
afterAll(() => temp.remove());

const frames = (...messages: object[]) => messages.map((message) => `${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`).join('');
const initialize = { id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'test', version: '1' } } };
/** A capture of one session of a server named `server`: a call of `weather` answered with `text`, and one of `add`. */
const capture = (server: string, text: string) =>
  [
    `-> ${JSON.stringify({ jsonrpc: '2.0', ...initialize })}`,
    `<- ${JSON.stringify({ jsonrpc: '2.0', id: 0, result: { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: server, version: '1.0.0' } } })}`,
    '-> {"jsonrpc":"2.0","method":"notifications/initialized"}',
    '-> {"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"weather","arguments":{"city":"Paris","days":[1,2,3]}}}',
    `<- ${JSON.stringify({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text }] } })}`,
    '-> {"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"add","arguments":{"a":2,"b":3}}}',
    '<- {"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"5"}]}}',
    '',
  ].join('\n');
const before = temp.file('before.log', capture('weather', 'sunny, 21 C'));
const after = temp.file('after.log', capture('forecast', 'rain, 12 C'));

/** A port on 127.0.0.1 nothing listens on (it was free a moment ago). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('every command answers bad use alike: one line, exit 2', () => {
  it.each([
    ['export har, an unknown option', ['export', 'har', before, '--bogus'], "mcp-spy export har: unknown option '--bogus' (see mcp-spy export har --help)\n"],
    ['export otlp, no file', ['export', 'otlp'], "mcp-spy export otlp: missing required argument 'file' (see mcp-spy export otlp --help)\n"],
    [
      'help of an unknown command',
      ['help', 'nosuch'],
      "mcp-spy: unknown command 'nosuch'; the commands: demo, view, ui, stats, check, report, replay, mock, diff, baseline, wrap, unwrap, sessions, export, import, http, help (see mcp-spy --help)\n",
    ],
    [
      'help of an unknown subcommand',
      ['export', 'help', 'nosuch'],
      "mcp-spy export: unknown command 'nosuch'; the commands: otlp, har, help (see mcp-spy export --help)\n",
    ],
    [
      'a bad duration',
      ['replay', before, '--timeout', 'soon', '--', 'cat'],
      "mcp-spy replay: option '--timeout <duration>' argument 'soon' is invalid: expected a duration such as 5000, 500ms, 5s or 2m (see mcp-spy replay --help)\n",
    ],
    [
      'a bad choice',
      ['stats', before, '--format', 'xml'],
      "mcp-spy stats: option '--format <format>' argument 'xml' is invalid: expected one of text, json, markdown (see mcp-spy stats --help)\n",
    ],
  ])('%s', async (_name, args, line) => {
    const result = await runBin(args);
    expect(result.stderr).toBe(line);
    expect(result.text).toBe('');
    expect(result.code).toBe(2);
  });

  it('export har and export otlp take --debug as every command does', async () => {
    const result = await runBin(['export', 'har', before, '--debug']);
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.text).log.version).toBe('1.2');
    expect(result.code).toBe(0);
    // otlp with --debug gets as far as the collector (none here), not an unknown option.
    const port = await closedPort();
    const otlp = await runBin(['export', 'otlp', before, '--debug', '--endpoint', `http://127.0.0.1:${port}`]);
    expect(otlp.stderr).toBe(`mcp-spy: cannot export spans to http://127.0.0.1:${port}/v1/traces: connect ECONNREFUSED 127.0.0.1:${port}\n`);
    expect(otlp.code).toBe(69);
  });

  it('no help shows "(default: [])" under a repeatable option', async () => {
    for (const command of [[], ['replay'], ['mock'], ['diff'], ['http'], ['check']]) {
      const result = await runBin([...command, '--help']);
      expect(result.code, command.join(' ')).toBe(0);
      expect(result.text, command.join(' ')).toContain('(repeatable)');
      expect(result.text, command.join(' ')).not.toContain('(default: [])');
    }
  });
});

describe('a collector that is not there', () => {
  it('export otlp says the refused connection at once, not after seconds of retries', async () => {
    const port = await closedPort();
    // The exporters retry a refused connection up to five times, seconds apart, and then fail with
    // the same line: what tells the two apart is how many connections the export tried (counted by
    // a preload, no clock read here). Said at once, it tried one.
    const connections = join(temp.dir, 'connections');
    const result = await runBin(['export', 'otlp', before, '--endpoint', `http://127.0.0.1:${port}`], {
      env: {
        OTEL_EXPORTER_OTLP_TIMEOUT: '600000',
        NODE_OPTIONS: `--require=${fixture('export', 'count-connections.cjs')}`,
        MCP_SPY_TEST_CONNECTIONS: connections,
      },
    });
    expect(result.stderr).toBe(`mcp-spy: cannot export spans to http://127.0.0.1:${port}/v1/traces: connect ECONNREFUSED 127.0.0.1:${port}\n`);
    expect(result.code).toBe(69);
    expect(readFileSync(connections, 'utf8')).toBe('1');
  });

  it('the live spy says the connection was refused, in its line and in the record', async () => {
    const port = await closedPort();
    const record = join(temp.dir, 'live.jsonl');
    const input = frames(initialize, { method: 'notifications/initialized' }, { id: 1, method: 'tools/list' });
    const result = await runBin(['--record', record, '--no-log', '-q', '--otlp', `http://127.0.0.1:${port}`, '--', node, fixture('demo', 'server.js')], {
      input,
    });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(
      `mcp-spy: cannot export spans to http://127.0.0.1:${port}/v1/traces: connect ECONNREFUSED 127.0.0.1:${port}; the traffic is not affected`,
    );
    const note = readEntries(record).find((entry) => entry.kind === 'note');
    expect(note?.reason).toBe(`connect ECONNREFUSED 127.0.0.1:${port}`);
  });
});

describe('mock and diff say what differs', () => {
  it('a mock miss suggests the nearest params of the same tool, never another tool', async () => {
    // Counted field by field, add's recorded params (5 changes) are nearer than weather's (6).
    const input = frames(initialize, { id: 1, method: 'tools/call', params: { name: 'weather', arguments: { city: 'Oslo', days: [4, 5, 6, 7, 8] } } });
    const result = await runBin(['mock', before], { input });
    const miss = JSON.parse(result.text.trim().split('\n')[1]!);
    expect(miss.error.message).toBe(
      'mcp-spy mock: no recorded answer for tools/call: no recorded tools/call request has these params {"name":"weather","arguments":{"city":"Oslo","days":[4,5,6,7,8]}}; nearest recorded params: {"name":"weather","arguments":{"city":"Paris","days":[1,2,3]}}',
    );
  });

  it('diff shows the values of a changed answer and ranks another server risky', async () => {
    const result = await runBin(['diff', before, after]);
    expect(result.text.split('\n')).toEqual([
      `${before} -> ${after}`,
      'risky      server forecast: another server: weather 1.0.0 -> forecast 1.0.0',
      'risky      answer tools/call weather: answer changed: result.content[0].text: "sunny, 21 C" -> "rain, 12 C"',
      '0 breaking, 2 risky, 0 compatible; 2 answers compared',
      '',
    ]);
    expect(result.code).toBe(1);
  });
});

describe('installing', () => {
  it('npm ci resolves every peer dependency: no ERESOLVE warnings', async () => {
    const dir = tempDir('mcp-spy-npm-ci-');
    try {
      for (const name of ['package.json', 'package-lock.json']) copyFileSync(join(root, name), join(dir.dir, name));
      // A dry run from the lock, offline with an empty cache: the tree is resolved as a real npm ci resolves it, nothing fetched.
      const { stderr } = await promisify(execFile)(
        'npm',
        ['ci', '--dry-run', '--ignore-scripts', '--offline', '--no-audit', '--no-fund', '--cache', join(dir.dir, 'cache')],
        { cwd: dir.dir },
      );
      expect(stderr).not.toContain('ERESOLVE');
    } finally {
      dir.remove();
    }
  });
});
