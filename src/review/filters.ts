import { fieldOf } from '../record/entry-fields.js';
import { textOf } from '../record/frame-message.js';
import type { RecordEntry } from '../record/schema.js';
import { parseFilter } from './filter-expression.js';
import { kindNamed, kindsInWords } from './kind-names.js';
import { parseTimePoint } from './time-point.js';

/** What `view` (and `stats`) may select by; every option narrows, lists within one option widen. */
export interface FilterOptions {
  kind?: string[];
  dir?: string;
  method?: string[];
  tool?: string[];
  /** A request and its response (and its progress and cancellation) together. */
  id?: string[];
  session?: string[];
  since?: string;
  until?: string;
  text?: string;
  filter?: string;
  /** Times given (and shown) in the machine's time zone instead of UTC. */
  local?: boolean;
}

export type EntryTest = (entry: RecordEntry) => boolean;
export type BuiltFilter = { ok: true; test: EntryTest } | { ok: false; message: string };

const oneOf = (values: string[] | undefined, read: (entry: RecordEntry) => unknown): EntryTest | undefined =>
  values && values.length > 0 ? (entry) => values.includes(String(read(entry))) : undefined;

function idMatch(ids: string[] | undefined): EntryTest | undefined {
  if (!ids || ids.length === 0) return undefined;
  const has = (value: unknown) => (typeof value === 'string' || typeof value === 'number') && ids.includes(String(value));
  return (entry) => has(fieldOf(entry, 'id')) || has(fieldOf(entry, 'related')?.id);
}

/** Builds one test from the options; a bad option is a value with the message to show. */
export function buildFilter(options: FilterOptions): BuiltFilter {
  const tests: EntryTest[] = [];
  const unknown = (options.kind ?? []).filter((kind) => kindNamed(kind) === undefined);
  if (unknown.length > 0) return { ok: false, message: `--kind ${unknown.join(',')}: unknown kind (kinds: ${kindsInWords})` };
  const kinds = options.kind?.map((kind) => kindNamed(kind)!);
  if (options.dir !== undefined && options.dir !== 'c2s' && options.dir !== 's2c') return { ok: false, message: `--dir ${options.dir}: expected c2s or s2c` };
  for (const test of [
    oneOf(kinds, (e) => e.kind),
    options.dir ? (e: RecordEntry) => fieldOf(e, 'dir') === options.dir : undefined,
    oneOf(options.method, (e) => fieldOf(e, 'method')),
    oneOf(options.tool, (e) => fieldOf(e, 'tool')),
    idMatch(options.id),
    oneOf(options.session, (e) => e.session),
  ]) {
    if (test) tests.push(test);
  }
  for (const [name, value, after] of [
    ['since', options.since, true],
    ['until', options.until, false],
  ] as const) {
    if (value === undefined) continue;
    const bound = parseTimePoint(value, options.local);
    if (!bound.ok) return { ok: false, message: `--${name} ${value}: ${bound.message}` };
    tests.push((entry) => {
      const key = bound.read(entry.t);
      return key !== undefined && (after ? key >= bound.at : key <= bound.at);
    });
  }
  if (options.text !== undefined) {
    const needle = options.text.toLowerCase();
    tests.push((entry) => textOf(entry)?.toLowerCase().includes(needle) === true);
  }
  if (options.filter !== undefined) {
    const parsed = parseFilter(options.filter, { local: options.local });
    if (!parsed.ok) return { ok: false, message: `bad filter expression: ${parsed.message}` };
    tests.push(parsed.test);
  }
  return { ok: true, test: (entry) => tests.every((test) => test(entry)) };
}

/** Splits comma-separated option values, as repeated or joined: `--kind a,b --kind c`. */
export function listOption(value: string, previous: string[] = []): string[] {
  return [
    ...previous,
    ...value
      .split(',')
      .map((part) => part.trim())
      .filter((part) => part !== ''),
  ];
}
