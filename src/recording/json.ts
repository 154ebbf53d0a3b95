export { canonicalJson } from '../protocol/canonical-json.js';

/** A deep copy of plain JSON data. */
export function cloneJson<T>(value: T): T {
  return value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T);
}

/** A message with its id replaced, the other keys kept in their order. */
export function withId(message: Record<string, unknown>, id: unknown): Record<string, unknown> {
  return { ...message, id };
}

/** A short one-line preview of a JSON value for messages to people. */
export function previewJson(value: unknown, limit = 160): string {
  const text = value === undefined ? '(none)' : JSON.stringify(value);
  return text.length > limit ? `${text.slice(0, limit - 1)}…` : text;
}
