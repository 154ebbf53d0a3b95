// JSON from outside may nest as deep as its text allows (50,000 levels fit in 100 KB), and a
// recursive walk over it (JSON.stringify, a diff, a JSONPath) runs out of stack long before. Every
// value read from the wire or a file is cut at `maxDepth` here, once, with no recursion, so what
// comes after may recurse freely.

/** How deep a JSON value may nest before what lies deeper is cut: far beyond any real MCP message. */
export const maxDepth = 1000;

/** What stands in place of a value nested deeper than `maxDepth`. */
export const cutMarker = `[mcp-spy: nested deeper than ${maxDepth} levels, cut]`;

type Container = Record<string, unknown> | unknown[];

const isContainer = (value: unknown): value is Container => typeof value === 'object' && value !== null;

/** Whether a value nests deeper than `limit` objects and arrays. Iterative: any depth. */
export function nestsDeeper(value: unknown, limit = maxDepth): boolean {
  if (!isContainer(value)) return false;
  // Two plain stacks, no pair per value: this runs on every large frame the observer reads.
  const items: Container[] = [value];
  const depths: number[] = [1];
  while (items.length > 0) {
    const item = items.pop()!;
    const depth = depths.pop()!;
    if (depth > limit) return true;
    if (Array.isArray(item)) {
      for (let index = 0; index < item.length; index++) {
        const child = item[index];
        if (typeof child === 'object' && child !== null) {
          items.push(child as Container);
          depths.push(depth + 1);
        }
      }
    } else {
      for (const key in item) {
        const child = item[key];
        if (typeof child === 'object' && child !== null) {
          items.push(child as Container);
          depths.push(depth + 1);
        }
      }
    }
  }
  return false;
}

/** Whether `text`, as JSON, cannot nest deeper than `limit`: each level costs at least two characters. */
export const tooShortToNest = (text: string | { length: number }, limit = maxDepth) => text.length <= 2 * limit;

/**
 * A copy of `value` whose objects and arrays deeper than `limit` are replaced by `cutMarker`, or
 * the value itself when none is that deep. Iterative: any depth.
 */
export function cutDeep(value: unknown, limit = maxDepth): unknown {
  if (!nestsDeeper(value, limit)) return value;
  const copyOf = (item: Container): Container => (Array.isArray(item) ? new Array<unknown>(item.length) : {});
  // Defined, not assigned, as JSON.parse does: a key `__proto__` stays data.
  const set = (to: Container, key: string, child: unknown) =>
    Object.defineProperty(to, key, { value: child, writable: true, enumerable: true, configurable: true });
  const root = copyOf(value as Container);
  const stack: [Container, Container, number][] = [[value as Container, root, 1]];
  while (stack.length > 0) {
    const [from, to, depth] = stack.pop()!;
    for (const key of Object.keys(from)) {
      const child = (from as Record<string, unknown>)[key];
      if (!isContainer(child)) set(to, key, child);
      else if (depth >= limit) set(to, key, cutMarker);
      else {
        const copy = copyOf(child);
        set(to, key, copy);
        stack.push([child, copy, depth + 1]);
      }
    }
  }
  return root;
}

/** The value of JSON text, cut at `maxDepth` (and whether it was); throws as JSON.parse does on bad JSON. */
export function parseCut(text: string): { value: unknown; cut: boolean } {
  const value: unknown = JSON.parse(text);
  if (tooShortToNest(text)) return { value, cut: false };
  const kept = cutDeep(value);
  return { value: kept, cut: kept !== value };
}
