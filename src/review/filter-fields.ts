import { fieldOf } from '../record/entry-fields.js';
import { textOf } from '../record/frame-message.js';
import type { RecordEntry } from '../record/schema.js';

/** What a field of the filter language reads from an entry: a string, a number, a list, or nothing. */
export type FieldValue = string | number | string[] | undefined;

const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
const number = (value: unknown): number | undefined => (typeof value === 'number' ? value : undefined);

/** The fields a filter expression may name, each with where it lives in the record. */
export const filterFields: Record<string, (entry: RecordEntry) => FieldValue> = {
  kind: (e) => text(e.kind),
  dir: (e) => text(fieldOf(e, 'dir')),
  method: (e) => text(fieldOf(e, 'method')),
  tool: (e) => text(fieldOf(e, 'tool')),
  prompt: (e) => text(fieldOf(e, 'prompt')),
  uri: (e) => text(fieldOf(e, 'uri')),
  id: (e) => {
    const id = fieldOf(e, 'id');
    return typeof id === 'string' || typeof id === 'number' ? String(id) : undefined;
  },
  session: (e) => text(e.session),
  seq: (e) => number(e.seq),
  latency: (e) => number(fieldOf(e, 'latencyMs')),
  code: (e) => number((fieldOf(e, 'error') as { code?: unknown } | undefined)?.code),
  error: (e) => text((fieldOf(e, 'error') as { message?: unknown } | undefined)?.message),
  rev: (e) => text(fieldOf(e, 'rev')),
  bytes: (e) => number(fieldOf(e, 'bytes')),
  time: (e) => text(e.t),
  note: (e) => {
    const notes = fieldOf(e, 'notes');
    return Array.isArray(notes) ? notes.map(String) : undefined;
  },
  text: (e) => textOf(e),
};

export const fieldNames = Object.keys(filterFields);
