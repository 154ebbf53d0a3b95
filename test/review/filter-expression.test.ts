import { describe, expect, it } from 'vitest';
import type { TestEntry } from '../helpers/spy.js';
import { parseFilter } from '../../src/review/filter-expression.js';
import { buildFilter } from '../../src/review/filters.js';

const entry = (fields: Partial<TestEntry>): TestEntry => ({ v: 1, seq: 1, t: '2026-07-28T14:05:30.250Z', kind: 'request', ...fields }) as TestEntry;

const call = entry({
  dir: 'c2s',
  kind: 'response',
  method: 'tools/call',
  tool: 'search',
  id: 7,
  latencyMs: 812.5,
  session: 'a1',
  rev: '2025-06-18',
  raw: '{"result":{"content":[{"type":"text","text":"Found It"}]}}',
});
const failure = entry({
  dir: 's2c',
  kind: 'protocol-error',
  method: 'tools/call',
  id: 'x',
  error: { code: -32602, message: 'Invalid params' },
  notes: ['orphan-response'],
});
const noise = entry({ dir: 's2c', kind: 'invalid', notes: ['stdout-noise', 'not-json'], raw: 'hello' });

const cases: [string, TestEntry, boolean][] = [
  ['tool = "search" and latency > 500', call, true],
  ['tool = search and latency > 1000', call, false],
  ['latency >= 812.5 && latency <= 812.5', call, true],
  ['method = "tools/*"', call, true],
  ['method = "tools/*"', noise, false],
  ['kind = protocol-error and code = -32602', failure, true],
  ['code < -32600', failure, true],
  ['not code', call, true],
  ['code', call, false],
  ['id = 7', call, true],
  ['id = "x"', failure, true],
  ['note = stdout-noise', noise, true],
  ['note = orphan-response', noise, false],
  ['note != not-json', noise, false],
  ['text ~ "found it"', call, true],
  ['text !~ "found"', call, false],
  ['error ~ invalid', failure, true],
  ['dir = s2c and (kind = invalid or kind = protocol-error)', failure, true],
  ['dir = s2c and (kind = invalid or kind = protocol-error)', call, false],
  ['not (kind = request or kind = response) and dir = s2c', noise, true],
  ['! kind = invalid', noise, false],
  ['session = a1 || session = b2', call, true],
  ['tool != search', failure, true],
  ['rev >= "2025-06-18"', call, true],
  ['time > "14:05:00" and time < "2026-07-29"', call, true],
  // Kinds are named as the log shows them too (proto-error, notify, INVALID), in any case.
  ['KIND = RESPONSE', call, true],
  ['kind = proto-error', failure, true],
  ['kind = INVALID', noise, true],
  ['kind != notify', noise, true],
  ['kind = "tool-*"', failure, false],
  ['kind = response OR kind = request', call, true],
];

describe('filter expressions', () => {
  for (const [source, subject, expected] of cases) {
    it(`${source} on a ${subject.kind} is ${expected}`, () => {
      const parsed = parseFilter(source);
      expect(parsed.ok).toBe(true);
      if (parsed.ok) expect(parsed.test(subject)).toBe(expected);
    });
  }

  const errors: [string, string][] = [
    ['', 'expected a field or "(" at column 1'],
    ['latency >', "expected a value after '>' at column 10"],
    ['tool = "a" and', 'expected a field or "(" at column 15'],
    ['(tool = a', 'expected ")" at column 10'],
    ['tool = a)', "unexpected ')' at column 9"],
    ['tool = "a', 'unterminated string at column 8'],
    ['tool = a b', "unexpected 'b' at column 10"],
    ['tool % 3', "unexpected '%' at column 6"],
    ['> 3', "expected a field, got '>' at column 1"],
    // A kind no entry can have matches nothing: said, not silently empty.
    [
      'kind = proto_error',
      "unknown kind 'proto_error' (kinds: request, notification (notify), response, tool-error, protocol-error (proto-error), invalid, spawn, exit, stderr, gap, unanswered, http, note, fault, intercept) at column 8",
    ],
  ];
  for (const [source, message] of errors) {
    it(`says what is wrong with ${JSON.stringify(source)}`, () => {
      expect(parseFilter(source)).toEqual({ ok: false, message });
    });
  }
});

describe('view options as a filter', () => {
  const test = (options: Parameters<typeof buildFilter>[0], subject: TestEntry) => {
    const built = buildFilter(options);
    if (!built.ok) throw new Error(built.message);
    return built.test(subject);
  };

  it('narrows by every option and widens within one', () => {
    expect(test({ kind: ['invalid', 'protocol-error'] }, noise)).toBe(true);
    expect(test({ kind: ['invalid'], dir: 'c2s' }, noise)).toBe(false);
    expect(test({ method: ['tools/call'], tool: ['search'] }, call)).toBe(true);
    expect(test({ id: ['7'] }, call)).toBe(true);
    expect(test({ id: ['7'] }, entry({ kind: 'notification', related: { seq: 1, id: 7, method: 'tools/call' } }))).toBe(true);
    expect(test({ session: ['b2'] }, call)).toBe(false);
    expect(test({ text: 'FOUND' }, call)).toBe(true);
  });

  it('reads time bounds as a time of day or a full date', () => {
    expect(test({ since: '14:05' }, call)).toBe(true);
    expect(test({ since: '14:05:31' }, call)).toBe(false);
    expect(test({ until: '14:05:30.250' }, call)).toBe(true);
    expect(test({ since: '2026-07-28T14:00:00Z', until: '2026-07-28T15:00:00Z' }, call)).toBe(true);
    expect(test({ until: '2026-07-27' }, call)).toBe(false);
  });

  it('takes the kinds as the log names them', () => {
    expect(test({ kind: ['proto-error'] }, failure)).toBe(true);
    expect(test({ kind: ['INVALID'] }, noise)).toBe(true);
    expect(test({ kind: ['notify'] }, call)).toBe(false);
  });

  it('refuses unknown kinds, directions and times', () => {
    expect(buildFilter({ kind: ['tool_error'] })).toMatchObject({
      ok: false,
      message: expect.stringMatching(/^--kind tool_error: unknown kind \(kinds: request, /),
    });
    expect(buildFilter({ dir: 'up' })).toEqual({ ok: false, message: '--dir up: expected c2s or s2c' });
    expect(buildFilter({ since: 'yesterday' })).toMatchObject({ ok: false, message: expect.stringMatching(/^--since yesterday: expected a time/) });
  });
});
