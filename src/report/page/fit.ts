// Text in the drawings is cut to the pixels it has, measured with the page's own fonts: a label
// never runs past its box or off the edge of a drawing, and a cut ends in "…".

const monospace = '11px ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace';
let context: CanvasRenderingContext2D | null | undefined;
let charPx: number | undefined;

function measure(text: string, font: string): number {
  context ??= document.createElement('canvas').getContext('2d');
  if (!context) return text.length * 7.5;
  context.font = font;
  return context.measureText(text).width;
}

/**
 * `text` in at most `px` pixels of `font`, ending in "…" when cut; cut at a space when one falls in
 * the last third of what fits, so a word is not broken where it need not be.
 */
export function fitText(text: string, px: number, font: string): string {
  if (measure(text, font) <= px) return text;
  let low = 0;
  let high = text.length;
  // The longest start that fits with its "…".
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (measure(`${text.slice(0, middle)}…`, font) <= px) low = middle;
    else high = middle - 1;
  }
  return `${atWord(text.slice(0, low))}…`;
}

/** The diagrams' monospace text (11 px) in at most `px` pixels: every character is as wide, so it is measured once. */
export function fitMono(text: string, px: number): string {
  charPx ??= measure('0'.repeat(100), monospace) / 100 || 6.7;
  const fits = Math.floor(px / charPx);
  if (text.length <= fits) return text;
  return fits < 2 ? '' : `${atWord(text.slice(0, fits - 1))}…`;
}

function atWord(start: string): string {
  const space = start.lastIndexOf(' ');
  return space > (start.length * 2) / 3 ? start.slice(0, space) : start;
}
