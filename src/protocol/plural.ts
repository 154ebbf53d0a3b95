/** `1 tool`, `2 tools`: a count and its noun. In the lowest room so that every room's words use the one. */
export function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
