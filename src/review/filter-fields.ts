import { textOf } from '../record/frame-message.js';
import type { RecordEntry } from '../record/schema.js';

/** What a field of the filter language reads from an entry: a string, a number, a list, or nothing. */
export type FieldValue = string | number | string[] | undefined;

const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
const number = (value: unknown): number | undefined => (typeof value === 'number' ? value : undefined);

/** The fields a filter expression may name, each with where it lives in the record. */
export const filterFields: Record<string, (entry: RecordEntry) => FieldValue> = {
  kind: (e) => text(e.kind),
  dir: (e) => text(e.dir),
  method: (e) => text(e.method),
  tool: (e) => text(e.tool),
  prompt: (e) => text(e.prompt),
  uri: (e) => text(e.uri),
  id: (e) => (typeof e.id === 'string' || typeof e.id === 'number' ? String(e.id) : undefined),
  session: (e) => text(e.session),
  seq: (e) => number(e.seq),
  latency: (e) => number(e.latencyMs),
  code: (e) => number((e.error as { code?: unknown } | undefined)?.code),
  error: (e) => text((e.error as { message?: unknown } | undefined)?.message),
  rev: (e) => text(e.rev),
  bytes: (e) => number(e.bytes),
  time: (e) => text(e.t),
  note: (e) => (Array.isArray(e.notes) ? e.notes.map(String) : undefined),
  text: (e) => textOf(e),
};

export const fieldNames = Object.keys(filterFields);
