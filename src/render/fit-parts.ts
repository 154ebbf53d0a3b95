import { cutToWidth, displayWidth } from './display-width.js';

/** A part of a line that may be shortened to fit a terminal (a name, a URI, a command): plain text, painted once cut. */
export interface Cuttable {
  cut: string;
  paint?: (text: string) => string;
}

/** A part of a line: as it is (a number, a label, painted already), or cuttable. */
export type Part = string | Cuttable;

export const cuttable = (text: string, paint?: (text: string) => string): Cuttable => ({ cut: text, paint });

/** A cut part keeps at least this many columns: shorter, it would say nothing. */
const minPart = 8;

const textOf = (part: Part) => (typeof part === 'string' ? part : part.cut);
const painted = (part: Part, text: string) => (typeof part === 'string' ? part : (part.paint?.(text) ?? text));

/** The parts as they are, joined by spaces: the line for a file, which has no width. */
export function joinParts(parts: readonly Part[]): string {
  return parts
    .map((part) => painted(part, textOf(part)))
    .filter((text) => text !== '')
    .join(' ');
}

/**
 * The parts joined by spaces in at most `columns` terminal columns. The longest cuttable parts are
 * shortened first (a tool's name, a URI), so numbers (ids, latencies) stay whole; if that is not
 * enough, whole parts are left off the end for a "…", never half a number. `whole`: nothing was cut.
 */
export function fitParts(parts: readonly Part[], columns: number): { line: string; whole: boolean } {
  const kept = parts.filter((part) => textOf(part) !== '');
  const texts = kept.map(textOf);
  const widths = texts.map(displayWidth);
  const total = () => widths.reduce((sum, width) => sum + width, 0) + Math.max(0, widths.length - 1);
  let excess = total() - columns;
  const longestFirst = kept
    .map((_, index) => index)
    .filter((index) => typeof kept[index] !== 'string')
    .sort((a, b) => widths[b]! - widths[a]!);
  for (const index of longestFirst) {
    if (excess <= 0) break;
    const target = Math.max(minPart, widths[index]! - excess);
    if (target >= widths[index]!) continue;
    texts[index] = cutToWidth(texts[index]!, target);
    const width = displayWidth(texts[index]!);
    excess -= widths[index]! - width;
    widths[index] = width;
  }
  let count = kept.length;
  if (excess > 0) {
    // Room for " …" after what is kept.
    while (count > 1 && total() + 2 > columns) {
      count--;
      widths.length = count;
    }
  }
  const line = kept
    .slice(0, count)
    .map((part, index) => painted(part, texts[index]!))
    .join(' ');
  return count < kept.length ? { line: `${line} …`, whole: false } : { line, whole: texts.every((text, index) => text === textOf(kept[index]!)) };
}
