/**
 * A frame's record line: the entry's fields, then its JSON as `msg`, spliced in as the frame's own
 * text (never escaped into a string), last, so the line reads as the facts followed by the bytes.
 * `json` must be JSON text without a line break (the writer re-serializes a frame that has one).
 */
export function splicedLine(fields: object, json: Buffer | string): [string, Buffer | string, string] {
  const head = JSON.stringify(fields);
  return [`${head.slice(0, -1)},"msg":`, json, '}\n'];
}

/** What a record holds as `msg` for a frame's text: the text itself, or re-serialized when it holds a line break. */
export function msgTextOf(text: string, message: unknown): { json: string; keepRaw: boolean } {
  return text.includes('\n') ? { json: JSON.stringify(message), keepRaw: true } : { json: text, keepRaw: false };
}
