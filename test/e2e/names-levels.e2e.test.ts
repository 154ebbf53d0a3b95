// What a user sees of errors and kinds is what the record, the filters and check say: neutral names for
// the implementation-defined server errors, the id rule applied to errors as to results, and the
// kinds the log shows taken by --kind and --filter.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readRecord } from '../helpers/faults.js';
import { node, runBin, tempDir } from '../helpers/spy.js';

const temp = tempDir('mcp-spy-names-');
afterAll(() => temp.remove());

// Answers request 1 with -32000 (its id), request 2 with -32001 and no id, request 3 with a parse error and id null;
// a line of stdout noise first (the log's INVALID).
const server = `
process.stdout.write('starting\\n');
const answers = {
  1: { id: 1, error: { code: -32000, message: 'Bad Request' } },
  2: { error: { code: -32001, message: 'Session not found' } },
  3: { id: null, error: { code: -32700, message: 'Parse error' } },
};
require('node:readline').createInterface({ input: process.stdin }).on('line', (line) => {
  const answer = answers[JSON.parse(line).id];
  if (answer) process.stdout.write(JSON.stringify({ jsonrpc: '2.0', ...answer }) + '\\n');
});`;

let record: string;
let log: string;
beforeAll(async () => {
  const input = [1, 2, 3].map((id) => `${JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/list' })}\n`).join('');
  const result = await runBin(['-q', '--', node, '-e', server], { cwd: temp.dir, input });
  expect(result.code).toBe(0);
  record = join(temp.dir, 'wire.jsonl');
  log = (await runBin(['view', record])).text;
}, 30_000);

describe('error names', () => {
  it('the implementation-defined range is "Server error", not the SDK\'s internals', () => {
    const errors = readRecord(record).filter((entry) => entry.kind === 'protocol-error');
    expect(errors.map((entry) => entry.errorName)).toEqual(['Server error', 'Server error', 'Parse error']);
    expect(log).not.toMatch(/Connection closed|Request timeout/);
    expect(log).toMatch(/proto-error +tools\/list #1 [\d.]+ms -32000 Server error: Bad Request/);
  });
});

describe('an error without the id of its request', () => {
  it('is noted, as a result without id is, unless a parse or invalid-request error', async () => {
    const errors = readRecord(record).filter((entry) => entry.kind === 'protocol-error');
    expect(errors.map((entry) => entry.notes ?? [])).toEqual([[], ['error-without-id'], []]);
    const check = await runBin(['check', record]);
    expect(check.text).toMatch(/warning error-without-id: an error response without the id/);
    expect(check.text.match(/error-without-id/g)).toHaveLength(1);
  });
});

describe('kinds as the log names them', () => {
  it('--filter takes proto-error, as the log shows it', async () => {
    const view = await runBin(['view', record, '--filter', 'kind = proto-error']);
    expect(view.code).toBe(0);
    expect(view.text.trimEnd().split('\n')).toHaveLength(3);
  });

  it('--kind takes proto-error and notify', async () => {
    const view = await runBin(['view', record, '--kind', 'proto-error,notify']);
    expect(view.code).toBe(0);
    expect(view.text.trimEnd().split('\n')).toHaveLength(3);
  });

  it('--filter and --kind take INVALID as the log shows it, in any case', async () => {
    for (const args of [
      ['--filter', 'kind = INVALID'],
      ['--kind', 'INVALID'],
      ['--kind', 'Invalid'],
    ]) {
      const view = await runBin(['view', record, ...args]);
      expect(view.code).toBe(0);
      expect(view.text).toMatch(/^\S+ <- INVALID +!stdout-noise,not-json starting\n$/);
    }
  });

  it('a filter on a kind no entry can have is an error, not an empty view', async () => {
    const view = await runBin(['view', record, '--filter', 'kind = proto_error']);
    expect(view.code).toBe(2);
    expect(view.text).toBe('');
    expect(view.stderr).toMatch(/^mcp-spy: bad filter expression: unknown kind 'proto_error' \(kinds: .*protocol-error \(proto-error\)/);
  });
});
