// Splitting a rule into words: spaces separate, double quotes keep a phrase whole (with \" and \\ inside).

export interface Token {
  text: string;
  quoted: boolean;
  /** Its last character stood outside quotes (so a final colon ends the match part). */
  bareEnd?: boolean;
}

/** The words of a rule, or the reason it has none (an unclosed quote). */
export function tokenize(line: string): { tokens: Token[] } | { problem: string } {
  const tokens: Token[] = [];
  let at = 0;
  while (at < line.length) {
    if (/\s/.test(line[at]!)) {
      at += 1;
      continue;
    }
    let text = '';
    let quoted = false;
    let bareEnd = true;
    while (at < line.length && !/\s/.test(line[at]!)) {
      if (line[at] !== '"') {
        text += line[at];
        at += 1;
        bareEnd = true;
        continue;
      }
      quoted = true;
      bareEnd = false;
      at += 1;
      while (at < line.length && line[at] !== '"') {
        if (line[at] === '\\' && at + 1 < line.length) at += 1;
        text += line[at];
        at += 1;
      }
      if (at >= line.length) return { problem: 'a quote is not closed' };
      at += 1;
    }
    tokens.push({ text, quoted, bareEnd });
  }
  return { tokens };
}
