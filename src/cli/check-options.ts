/** The choices of `check`, apart from the command so that the program loads without the rule engine. */
export const checkFormats = ['text', 'json', 'junit', 'sarif'] as const;
export type CheckFormat = (typeof checkFormats)[number];

/** Collects repeated (or comma-joined) `--rule ID=level` options. */
export function collectRule(value: string, previous: string[] = []): string[] {
  return [...previous, ...value.split(',').filter((part) => part.trim() !== '')];
}
