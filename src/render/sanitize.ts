// C0 and C1 controls (ESC among them), DEL, and bidirectional overrides: anything that could move
// the cursor, recolour the terminal, write the clipboard or reorder what a person reads.
const unsafe = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;
const anyUnsafe = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
// JSON.stringify escapes C0 itself and leaves the rest as they are.
const unsafeInJson = /[\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

const named: Readonly<Record<string, string>> = { '\t': '\\t', '\n': '\\n', '\r': '\\r' };
const escapeOf = (char: string) => named[char] ?? `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;

/** Makes a string from outside safe to print on a terminal: controls become visible escapes. */
export function sanitize(text: string): string {
  if (!anyUnsafe.test(text)) return text;
  return text.replace(unsafe, escapeOf);
}

// For a page: the same, but tabs and line breaks are layout there, not control.
const unsafeInPage = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/**
 * Makes a string from outside safe to show in a page: controls and bidirectional overrides become
 * visible escapes, so none can hide text or reorder what a person reads ("evil\u202etxt.exe").
 */
export function visibleText(text: string): string {
  return text.replace(unsafeInPage, escapeOf);
}

/** Lines for a terminal, each made safe, one per line: what a text report prints. */
export function printableLines(lines: readonly string[]): string {
  return `${lines.map(sanitize).join('\n')}\n`;
}

/**
 * JSON.stringify for output a person may read on a terminal: the same JSON, with the controls it
 * leaves raw (DEL, C1, bidirectional overrides, only ever inside strings) written as \u escapes.
 */
export function printableJson(value: unknown, space?: number): string {
  return (JSON.stringify(value, null, space) ?? 'null').replace(unsafeInJson, escapeOf);
}

/** Cuts a string to at most `max` characters, with "…" when it did. */
export function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}
