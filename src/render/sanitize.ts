// C0 and C1 controls (ESC among them), DEL, and bidirectional overrides: anything that could move
// the cursor, recolour the terminal or reorder what a person reads.
const unsafe = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;
const anyUnsafe = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

/** Makes a string from outside safe to print on a terminal: controls become visible escapes. */
export function sanitize(text: string): string {
  if (!anyUnsafe.test(text)) return text;
  return text.replace(unsafe, (char) => {
    if (char === '\t') return '\\t';
    if (char === '\n') return '\\n';
    if (char === '\r') return '\\r';
    return `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;
  });
}

/** Cuts a string to at most `max` characters, with "…" when it did. */
export function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}
