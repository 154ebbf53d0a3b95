import { JSONPath } from 'jsonpath-plus';

/** `result.content[*].text` and `$..timestamp` alike: paths are taken from the JSON-RPC message's root. */
export function normalizeJsonPath(path: string): string {
  const trimmed = path.trim();
  if (trimmed.startsWith('$')) return trimmed;
  return trimmed.startsWith('[') || trimmed.startsWith('.') ? `$${trimmed}` : `$.${trimmed}`;
}

/** One step of a path: `.name`, `..name`, `.*`, `..` before a bracket, `[0]`, `[*]`, `['name']`, `[?(filter)]`. */
const pathStep = /^(?:\.\.?(?:[A-Za-z_$][\w$-]*|\*)|\.\.(?=\[)|\[(?:\d+|\*|'[^']*'|"[^"]*"|\?\(.+?\))\])/;

/** Checks a path once, so a typo is bad use rather than a silent no-op (or, worse, a match of everything). */
export function checkJsonPath(path: string): string | undefined {
  const normal = normalizeJsonPath(path);
  let rest = normal.slice(1);
  if (rest === '') return 'it selects the whole message';
  while (rest !== '') {
    const step = pathStep.exec(rest);
    if (!step) return `cannot read it from "${rest}" (expected .name, ..name, [0], [*], ['name'] or [?(filter)])`;
    rest = rest.slice(step[0].length);
  }
  try {
    JSONPath({ path: normal, json: { a: [{ b: 1 }], c: { d: 'e' } }, wrap: true });
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}
