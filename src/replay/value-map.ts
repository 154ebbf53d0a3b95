import { JSONPath } from 'jsonpath-plus';
import { isObject } from '../protocol/jsonrpc.js';
import { normalizeIgnorePath } from '../recording/ignore.js';

/**
 * Where a server hands out values that its client sends back later: task ids, pagination cursors,
 * the URIs of resources it made. Message-rooted JSONPath, like the ignore paths.
 */
export const defaultFollows = [
  '$..taskId',
  '$.result.nextCursor',
  '$.result.resources[*].uri',
  '$.result.content[*].uri',
  '$.result.content[*].resource.uri',
  // A 2026-07-28 server's state for the next round of a call: the retry echoes the live one.
  '$.result.requestState',
] as const;

interface Found {
  path: string;
  value: unknown;
}

function valuesAt(message: unknown, paths: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  if (!isObject(message)) return out;
  for (const path of paths) {
    const found = JSONPath({ path: normalizeIgnorePath(path), json: message, resultType: 'all', wrap: true }) as Found[];
    for (const { path: where, value } of found) if (typeof value === 'string') out.set(where, value);
  }
  return out;
}

/** A string with each occurrence of the `within` keys replaced by their values. */
function replaceWithin(text: string, within: ReadonlyMap<string, string>): string {
  let out = text;
  for (const [from, to] of within) out = out.replaceAll(from, to);
  return out;
}

/** A deep copy of JSON data with each string the map knows replaced by its value, and the `within` keys inside strings. */
function substitute(value: unknown, map: ReadonlyMap<string, string>, within: ReadonlyMap<string, string>): unknown {
  if (typeof value === 'string') return map.get(value) ?? replaceWithin(value, within);
  if (Array.isArray(value)) return value.map((item) => substitute(item, map, within));
  if (!isObject(value)) return value;
  const copy: Record<string, unknown> = Object.create(null);
  for (const key of Object.keys(value)) copy[key] = substitute(value[key], map, within);
  return copy;
}

/** Shorter ids (a stdio run's own) are not looked for inside texts: they could be words. */
const shortestSessionId = 16;

/**
 * Values the recorded server generated, mapped to what the live server gave in the same place of the
 * matching response, the way ids are mapped: a fresh server never issued the recorded taskId.
 */
export function createValueMap(paths: readonly string[]) {
  const recordedToLive = new Map<string, string>();
  const sessionIds = new Map<string, string>();
  return {
    /**
     * The recorded session's Mcp-Session-Id and the live one: a server may put its session id in
     * what it says (server-everything's toggle tools do), and a fresh session has another.
     */
    learnSession(recorded: string, live: string) {
      if (recorded !== live && recorded.length >= shortestSessionId) sessionIds.set(recorded, live);
    },
    /** Learns from a recorded response and the live one that answered the same request. */
    learn(recorded: unknown, live: unknown) {
      const theirs = valuesAt(live, paths);
      for (const [where, value] of valuesAt(recorded, paths)) {
        const now = theirs.get(where);
        if (now !== undefined && now !== value) recordedToLive.set(value, now);
      }
    },
    /** A recorded message with the values learnt so far replaced; the message itself when none apply. */
    apply<T>(message: T): T {
      if (recordedToLive.size === 0 && sessionIds.size === 0) return message;
      const mapped = substitute(message, recordedToLive, sessionIds);
      return JSON.stringify(mapped) === JSON.stringify(message) ? message : ({ ...(mapped as object) } as T);
    },
    get size() {
      return recordedToLive.size + sessionIds.size;
    },
  };
}

export type ValueMap = ReturnType<typeof createValueMap>;
