/** A name pattern where `*` stands for any run of characters (`delete_*`, `tools/*`); the rest is literal. */
export function globToRegExp(glob: string): RegExp {
  return new RegExp(
    `^${glob
      .split('*')
      .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
  );
}
