import { isObject } from '../protocol/jsonrpc.js';
import { globToRegExp } from '../protocol/name-pattern.js';
import { isFrameEntry, messageOf } from '../record/frame-message.js';
import type { RecordEntry } from '../record/schema.js';
import type { Finding, RuleDefinition } from './types.js';

/** What a CI job asserts of a recording besides the protocol (`check --expect-tool`, `--forbid-tool`, `--max-duration`). */
export interface Assertions {
  /** Tools the server must list (`*` is a wildcard). */
  expectTools: string[];
  /** Tools the server must neither list nor be asked to call. */
  forbidTools: string[];
  /** The longest answer allowed per method (`tools/call`, `resources/*`) or tool (`tool:search`), in ms. */
  maxDurations: { pattern: string; ms: number }[];
}

const example = (lines: string[]) => lines.join('\n');
const listing = (names: string[]) =>
  example([
    '-> {"jsonrpc":"2.0","id":1,"method":"tools/list"}',
    `<- {"jsonrpc":"2.0","id":1,"result":{"tools":[${names.map((name) => `{"name":"${name}","inputSchema":{"type":"object"}}`).join(',')}]}}`,
  ]);

/** The assertions as rules, for the text line, the JUnit test case and the SARIF rule of each. */
export const assertionRules = {
  expectTool: {
    id: 'expect-tool',
    severity: 'error',
    summary: 'the server lists each tool --expect-tool names',
    bad: listing(['echo']),
    good: listing(['echo', 'search']),
  },
  forbidTool: {
    id: 'forbid-tool',
    severity: 'error',
    summary: 'the server lists no tool --forbid-tool names, and none is called',
    bad: listing(['echo', 'delete_all']),
    good: listing(['echo']),
  },
  maxDuration: {
    id: 'max-duration',
    severity: 'error',
    summary: 'each answer of a method (or tool) --max-duration names comes within its time',
    bad: '-> tools/call search at 10:00:00.000\n<- its answer at 10:00:02.500 (--max-duration tool:search=1s)',
    good: '-> tools/call search at 10:00:00.000\n<- its answer at 10:00:00.300 (--max-duration tool:search=1s)',
  },
} as const satisfies Record<string, RuleDefinition>;

/** The rules of the assertions given, in the order of the options. */
export function activeAssertionRules(assertions: Assertions): RuleDefinition[] {
  return [
    ...(assertions.expectTools.length > 0 ? [assertionRules.expectTool] : []),
    ...(assertions.forbidTools.length > 0 ? [assertionRules.forbidTool] : []),
    ...(assertions.maxDurations.length > 0 ? [assertionRules.maxDuration] : []),
  ];
}

const isAnswer = (kind: string) => kind === 'response' || kind === 'tool-error' || kind === 'protocol-error';

/** The names of the tools a `tools/list` answer lists. */
function listedTools(entry: RecordEntry): string[] {
  const result = (messageOf(entry) as { result?: { tools?: unknown } } | undefined)?.result;
  const tools = isObject(result) && Array.isArray(result.tools) ? result.tools : [];
  return tools.map((tool) => (isObject(tool) && typeof tool.name === 'string' ? tool.name : undefined)).filter((name) => name !== undefined);
}

/** Follows a recording entry by entry; `finish` gives the assertions it breaks, as findings of `check`. */
export function createAssertionChecker(assertions: Assertions) {
  const forbidden = assertions.forbidTools.map((pattern) => ({ pattern, test: globToRegExp(pattern) }));
  const durations = assertions.maxDurations.map(({ pattern, ms }) => ({
    pattern,
    ms,
    test: globToRegExp(pattern.replace(/^tool:/, '')),
    tool: pattern.startsWith('tool:'),
  }));
  const listed = new Set<string>();
  const findings: Finding[] = [];
  let lists = 0;
  const found = (rule: string, message: string, entry: RecordEntry, lineNo: number) =>
    findings.push({ rule, level: 'error', message, seq: entry.seq, lineNo, ...(typeof entry.session === 'string' ? { session: entry.session } : {}) });

  return {
    add(entry: RecordEntry, lineNo: number) {
      if (!isFrameEntry(entry)) return;
      if (entry.dir === 's2c' && entry.kind === 'response' && entry.method === 'tools/list') {
        lists++;
        for (const name of listedTools(entry)) {
          listed.add(name);
          const rule = forbidden.find(({ test }) => test.test(name));
          if (rule) found('forbid-tool', `the server lists tool ${JSON.stringify(name)}, forbidden by --forbid-tool ${rule.pattern}`, entry, lineNo);
        }
      }
      if (entry.dir === 'c2s' && entry.kind === 'request' && entry.method === 'tools/call' && typeof entry.tool === 'string') {
        const rule = forbidden.find(({ test }) => test.test(entry.tool as string));
        if (rule) found('forbid-tool', `tool ${JSON.stringify(entry.tool)} is called, forbidden by --forbid-tool ${rule.pattern}`, entry, lineNo);
      }
      if (typeof entry.latencyMs === 'number' && isAnswer(entry.kind) && typeof entry.method === 'string') {
        const subject = (tool: boolean) => (tool ? entry.tool : entry.method);
        const limit = durations.find(({ test, tool }) => typeof subject(tool) === 'string' && test.test(subject(tool) as string));
        if (limit && entry.latencyMs > limit.ms) {
          const what = `${entry.method}${typeof entry.tool === 'string' ? ` ${entry.tool}` : ''}`;
          found('max-duration', `${what} answered in ${entry.latencyMs} ms, over the ${limit.ms} ms of --max-duration ${limit.pattern}`, entry, lineNo);
        }
      }
    },
    finish(): Finding[] {
      for (const pattern of assertions.expectTools) {
        const test = globToRegExp(pattern);
        if ([...listed].some((name) => test.test(name))) continue;
        const seen = lists === 0 ? 'the recording has no tools/list answer' : `listed: ${[...listed].join(', ') || 'none'}`;
        findings.push({
          rule: 'expect-tool',
          level: 'error',
          message: `the server never lists tool ${JSON.stringify(pattern)}, expected by --expect-tool (${seen})`,
        });
      }
      return findings;
    },
  };
}
