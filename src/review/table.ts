/** A table for people: columns padded for a terminal, or GitHub markdown for a pull request. */
export function formatTable(header: string[], rows: string[][], markdown: boolean): string {
  if (markdown) {
    const line = (cells: string[]) => `| ${cells.map((cell) => cell.replace(/\|/g, '\\|')).join(' | ')} |`;
    return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
  }
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]?.length ?? 0)));
  const line = (cells: string[]) =>
    cells
      .map((cell, column) => cell.padEnd(widths[column]!))
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line)].join('\n');
}
