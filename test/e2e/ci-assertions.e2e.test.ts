// CI assertions on a recording (check --expect-tool, --forbid-tool, --max-duration) in every format
// of check, and what each tool costs a model's context (stats: bytes of its definition and results).
import { afterAll, describe, expect, it } from 'vitest';
import { runBin, tempDir } from '../helpers/spy.js';

const temp = tempDir('mcp-spy-assert-');
afterAll(() => temp.remove());

const tools = [
  { name: 'search', description: 'Search the notes', inputSchema: { type: 'object', properties: { q: { type: 'string' } } } },
  { name: 'delete_all', description: 'Delete every note', inputSchema: { type: 'object' } },
];
const answer = { content: [{ type: 'text', text: 'found 3 notes: a, b, c' }] };
let seq = 0;
/** A record line: a frame of session s1, `ms` after 10:00:00 UTC, with its annotations. */
const line = (ms: number, dir: 'c2s' | 's2c', kind: string, message: object, fields: object = {}) => {
  const raw = JSON.stringify({ jsonrpc: '2.0', ...message });
  return `${JSON.stringify({ v: 1, seq: ++seq, t: new Date(Date.UTC(2026, 6, 28, 10, 0, 0, ms)).toISOString(), session: 's1', dir, kind, ...fields, raw })}\n`;
};
const record = temp.file(
  'wire.jsonl',
  [
    line(
      0,
      'c2s',
      'request',
      { id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } } },
      { method: 'initialize', id: 0 },
    ),
    line(
      20,
      's2c',
      'response',
      { id: 0, result: { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'notes', version: '1.0.0' } } },
      { method: 'initialize', id: 0, latencyMs: 20, related: { seq: 1, id: 0, method: 'initialize' } },
    ),
    line(30, 'c2s', 'notification', { method: 'notifications/initialized' }, { method: 'notifications/initialized' }),
    line(40, 'c2s', 'request', { id: 1, method: 'tools/list' }, { method: 'tools/list', id: 1 }),
    line(45, 's2c', 'response', { id: 1, result: { tools } }, { method: 'tools/list', id: 1, latencyMs: 5, related: { seq: 4, id: 1, method: 'tools/list' } }),
    line(
      50,
      'c2s',
      'request',
      { id: 2, method: 'tools/call', params: { name: 'search', arguments: { q: 'x' } } },
      { method: 'tools/call', id: 2, tool: 'search' },
    ),
    line(
      2550,
      's2c',
      'response',
      { id: 2, result: answer },
      { method: 'tools/call', id: 2, tool: 'search', latencyMs: 2500, related: { seq: 6, id: 2, method: 'tools/call', tool: 'search' } },
    ),
  ].join(''),
);
const asserting = [
  '--expect-tool',
  'search',
  '--expect-tool',
  'fetch*',
  '--forbid-tool',
  'delete_*',
  '--max-duration',
  'tool:search=1s',
  '--max-duration',
  'tools/list=1s',
];

describe('check: assertions for CI', () => {
  it('without assertions the recording is clean', async () => {
    const result = await runBin(['check', record]);
    expect(result.text).toBe(`${record}: clean (0 errors, 0 warnings in 7 entries)\n`);
    expect(result.code).toBe(0);
  });

  it('text: one line per broken assertion, exit 1', async () => {
    const result = await runBin(['check', record, ...asserting]);
    expect(result.text).toBe(
      [
        `${record}:5: error forbid-tool: the server lists tool "delete_all", forbidden by --forbid-tool delete_* [seq 5, session s1]`,
        `${record}:7: error max-duration: tools/call search answered in 2500 ms, over the 1000 ms of --max-duration tool:search [seq 7, session s1]`,
        `${record}: error expect-tool: the server never lists tool "fetch*", expected by --expect-tool (listed: search, delete_all)`,
        `${record}: 3 errors, 0 warnings in 7 entries`,
        '',
      ].join('\n'),
    );
    expect(result.code).toBe(1);
  });

  it('assertions that hold pass', async () => {
    const result = await runBin(['check', record, '--expect-tool', 'search', '--forbid-tool', 'drop', '--max-duration', 'tools/call=5s']);
    expect(result.text).toBe(`${record}: clean (0 errors, 0 warnings in 7 entries)\n`);
    expect(result.code).toBe(0);
  });

  it('JUnit: a test case per kind of assertion; SARIF: a rule each, results at their lines; JSON: the findings', async () => {
    const junit = await runBin(['check', record, ...asserting, '--format', 'junit']);
    for (const id of ['expect-tool', 'forbid-tool', 'max-duration'])
      expect(junit.text).toMatch(
        new RegExp(`<testcase name="${id}: [^"]*" classname="mcp-spy.check.${id}" time="0">\\n\\s+<failure message="1 finding\\(s\\)`),
      );
    expect(junit.code).toBe(1);
    const sarif = JSON.parse((await runBin(['check', record, ...asserting, '--format', 'sarif'])).text);
    const rules = sarif.runs[0].tool.driver.rules.map((rule: { id: string }) => rule.id);
    expect(rules.slice(-3)).toEqual(['expect-tool', 'forbid-tool', 'max-duration']);
    const results = sarif.runs[0].results.map((result: { ruleId: string; locations: { physicalLocation: { region?: { startLine: number } } }[] }) => [
      result.ruleId,
      result.locations[0]!.physicalLocation.region?.startLine,
    ]);
    expect(results).toEqual([
      ['forbid-tool', 5],
      ['max-duration', 7],
      ['expect-tool', undefined],
    ]);
    const json = JSON.parse((await runBin(['check', record, ...asserting, '--format', 'json'])).text);
    expect(json.findings.map((finding: { rule: string }) => finding.rule)).toEqual(['forbid-tool', 'max-duration', 'expect-tool']);
  });

  it('a forbidden tool that is called is said where it is called', async () => {
    const result = await runBin(['check', record, '--forbid-tool', 'search']);
    expect(result.text).toContain(`${record}:6: error forbid-tool: tool "search" is called, forbidden by --forbid-tool search [seq 6, session s1]`);
  });

  it('a --max-duration without a duration is one line, exit 2', async () => {
    const result = await runBin(['check', record, '--max-duration', 'tools/call']);
    expect(result.stderr).toBe(
      "mcp-spy check: option '--max-duration <method=duration>' argument 'tools/call' is invalid: expected METHOD=DURATION, e.g. tools/call=2s, tool:search=500ms or resources/*=1s (see mcp-spy check --help)\n",
    );
    expect(result.code).toBe(2);
  });
});

describe("stats: what each tool costs a model's context", () => {
  const definition = (name: string) => Buffer.byteLength(JSON.stringify(tools.find((tool) => tool.name === name)));
  const result = Buffer.byteLength(JSON.stringify(answer));

  it('text: the bytes of each definition and of the results', async () => {
    const { text } = await runBin(['stats', record]);
    expect(text).toContain(
      [
        'Tool sizes (bytes of JSON):',
        '',
        'tool        definition  results  result bytes  mean  max',
        `delete_all  ${definition('delete_all')}          0        -             -     -`,
        `search      ${definition('search')}         1        ${result}            ${result}    ${result}`,
        `All definitions: ${definition('delete_all') + definition('search')} bytes, in every conversation that lists the tools.`,
      ].join('\n'),
    );
  });

  it('markdown: the same table, to paste in a pull request', async () => {
    const { text } = await runBin(['stats', record, '--format', 'markdown']);
    expect(text).toContain(
      [
        '### Tool sizes (bytes of JSON)',
        '',
        '| tool | definition | results | result bytes | mean | max |',
        '| --- | --- | --- | --- | --- | --- |',
        `| delete_all | ${definition('delete_all')} | 0 | - | - | - |`,
        `| search | ${definition('search')} | 1 | ${result} | ${result} | ${result} |`,
        '',
        `All definitions: ${definition('delete_all') + definition('search')} bytes, in every conversation that lists the tools.`,
      ].join('\n'),
    );
  });

  it('json: toolSizes', async () => {
    const stats = JSON.parse((await runBin(['stats', record, '--format', 'json'])).text);
    expect(stats.toolSizes).toEqual({
      delete_all: { results: 0, resultBytes: 0, maxResultBytes: 0, definitionBytes: definition('delete_all') },
      search: { results: 1, resultBytes: result, maxResultBytes: result, definitionBytes: definition('search') },
    });
  });
});
