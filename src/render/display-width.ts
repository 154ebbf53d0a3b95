import stringWidth from 'string-width';

/**
 * How many terminal columns a text takes: wide characters (CJK, most emoji) take two, combining
 * marks and zero-width joiners none, colour codes none. What "fits a terminal" is measured in.
 */
export function displayWidth(text: string): number {
  return stringWidth(text);
}

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
const ellipsis = '…';

/**
 * Cuts a plain text (no colour codes) to at most `columns` columns, ending in "…" when it did: whole
 * characters only, so an emoji or a wide character is never split and never pushes the "…" past
 * the edge. A text that ends in "…" already (cut before) keeps a single one.
 */
export function cutToWidth(text: string, columns: number): string {
  if (displayWidth(text) <= columns) return text;
  if (columns < 1) return '';
  const base = text.endsWith(ellipsis) ? text.slice(0, -ellipsis.length) : text;
  let kept = '';
  let used = 0;
  for (const { segment } of graphemes.segment(base)) {
    const width = stringWidth(segment);
    if (used + width > columns - 1) break;
    kept += segment;
    used += width;
  }
  return `${kept}${ellipsis}`;
}
