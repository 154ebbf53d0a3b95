import { isObject, pick } from '../../protocol/jsonrpc.js';
import { toolHash } from './tool-pin.js';

/** How one complete tools/list differs from the one before it in the same session. */
export interface ToolListChange {
  added: string[];
  removed: string[];
  changed: string[];
  /** A notifications/tools/list_changed came before it. */
  announced: boolean;
}

/**
 * Follows the tool lists of one session (pages joined until no nextCursor): a list that differs from
 * the one the client already had is a tool changed mid-session, announced or not. Pure and total.
 */
export function createToolWatch() {
  let last: Map<string, string> | undefined;
  let collecting: Map<string, string> | undefined;
  let announced = false;
  let ended = false;

  return {
    /** The list the last result ended (its pages joined), by name to hash; undefined when that result was a page with more to come. */
    get ended(): ReadonlyMap<string, string> | undefined {
      return ended ? last : undefined;
    },
    /** The server said its list changed (notifications/tools/list_changed). */
    listChanged() {
      announced = true;
    },
    /** One tools/list result: when it ends a list that differs from the last one, what changed. */
    listed(result: unknown): ToolListChange | undefined {
      const tools = pick(result, 'tools');
      ended = false;
      if (!Array.isArray(tools)) return undefined;
      collecting ??= new Map();
      for (const tool of tools) if (isObject(tool) && typeof tool.name === 'string') collecting.set(tool.name, toolHash(tool));
      if (typeof pick(result, 'nextCursor') === 'string') return undefined;
      ended = true;
      const before = last;
      const after = collecting;
      const wasAnnounced = announced;
      last = after;
      collecting = undefined;
      announced = false;
      if (!before) return undefined;
      const change: ToolListChange = {
        added: [...after.keys()].filter((name) => !before.has(name)),
        removed: [...before.keys()].filter((name) => !after.has(name)),
        changed: [...after.keys()].filter((name) => before.has(name) && before.get(name) !== after.get(name)),
        announced: wasAnnounced,
      };
      return change.added.length + change.removed.length + change.changed.length === 0 ? undefined : change;
    },
  };
}

/** "changed: search; added: exfiltrate" */
export function describeToolListChange(change: ToolListChange): string {
  const parts = (['changed', 'added', 'removed'] as const).filter((key) => change[key].length > 0).map((key) => `${key}: ${change[key].join(', ')}`);
  return parts.join('; ');
}

/** What `tool-changed-mid-session` says: how it came about and which tools. */
export function toolChangeMessage(change: ToolListChange): string {
  const how = change.announced ? 'after notifications/tools/list_changed' : 'without notifications/tools/list_changed';
  return `the server changed its tools mid-session, ${how}: ${describeToolListChange(change)}`;
}

export type ToolWatch = ReturnType<typeof createToolWatch>;
