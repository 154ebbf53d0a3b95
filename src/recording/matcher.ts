import { withoutIgnored } from './ignore.js';
import { canonicalJson } from './json.js';
import diff from 'microdiff';
import type { RecordedExchange } from './exchanges.js';
import { isObject } from '../protocol/jsonrpc.js';
import { withoutPrototypes } from '../protocol/own-table.js';
import { redactedValue } from '../wire/redact/redact-frame.js';
import { withSecretNamesMasked } from '../wire/redact/secret-names.js';

export interface MatcherOptions {
  /** Message-rooted paths left out of the comparison of params (`$.._meta` by default). */
  ignores: readonly string[];
  /** Answer again once every recorded match was used (the last one repeats). */
  reuse: boolean;
}

export type MatchOutcome =
  | { ok: true; exchange: RecordedExchange; exact: boolean }
  | {
      ok: false;
      reason: 'unknown-method' | 'no-match' | 'used-up';
      method: string;
      nearest?: unknown;
      recordedMethods: string[];
      /** When the request names a tool, prompt or resource the recording never asked for: that name, and those it asked for. */
      unknownTarget?: { name: string; recorded: string[] };
    };

function paramsOf(message: unknown): unknown {
  return isObject(message) ? message.params : undefined;
}

/** What a request is about: the tool or prompt (`name`) or resource (`uri`) it names, if any. */
function targetOf(params: unknown): string | undefined {
  if (!isObject(params)) return undefined;
  const target = params.name ?? params.uri;
  return typeof target === 'string' ? target : undefined;
}

/**
 * Finds the recorded exchange for a live request by method and canonical params (ignoring ids and
 * the ignored paths). Matches are used in recorded order, like a server playback that pops them.
 */
export function createMatcher(exchanges: readonly RecordedExchange[], options: MatcherOptions) {
  const used = new Set<RecordedExchange>();
  const lastUsed = new Map<string, RecordedExchange>();
  // Secret-named members are masked in the record by default: their values are not compared.
  const strip = (params: unknown) =>
    withoutPrototypes(withSecretNamesMasked((withoutIgnored({ params: params ?? {} }, options.ignores) as { params: unknown }).params, redactedValue));
  const keyOf = (method: string, params: unknown) => `${method} ${canonicalJson(strip(params))}`;
  // Indexed once: a match costs the exchanges of its key, not the whole recording (a diff of 100,000
  // requests took minutes when each match filtered them all).
  const byKey = new Map<string, RecordedExchange[]>();
  const byMethod = new Map<string, RecordedExchange[]>();
  const add = (table: Map<string, RecordedExchange[]>, key: string, exchange: RecordedExchange) => {
    const list = table.get(key);
    if (list) list.push(exchange);
    else table.set(key, [exchange]);
  };
  for (const exchange of exchanges) {
    add(byKey, keyOf(exchange.request.method ?? '', paramsOf(exchange.request.message)), exchange);
    add(byMethod, exchange.request.method ?? '', exchange);
  }
  /** Per key, how many of its first exchanges are used: matches pop in recorded order. */
  const firstUnused = new Map<string, number>();
  const freshOf = (key: string, same: RecordedExchange[]) => {
    let at = firstUnused.get(key) ?? 0;
    while (at < same.length && used.has(same[at]!)) at++;
    firstUnused.set(key, at);
    return same[at];
  };

  /**
   * The candidate whose params differ least from these; `sameTarget` keeps to those naming the same
   * tool, prompt or resource (another tool's call is never the nearest of a call).
   */
  function nearestOf(candidates: RecordedExchange[], params: unknown, sameTarget = false): RecordedExchange | undefined {
    const target = targetOf(params);
    if (sameTarget && target !== undefined) candidates = candidates.filter((exchange) => targetOf(paramsOf(exchange.request.message)) === target);
    const wanted = strip(params);
    let best: { exchange: RecordedExchange; distance: number } | undefined;
    for (const exchange of candidates) {
      const theirs = strip(paramsOf(exchange.request.message));
      const distance = isObject(wanted) && isObject(theirs) ? diff(wanted, theirs).length : canonicalJson(wanted) === canonicalJson(theirs) ? 0 : 1;
      if (!best || distance < best.distance) best = { exchange, distance };
    }
    return best?.exchange;
  }

  return {
    /** The recorded exchange answering `method` with `params`, or why there is none. `loose` takes the nearest of the method. */
    match(method: string, params: unknown, loose = false): MatchOutcome {
      const key = keyOf(method, params);
      const same = byKey.get(key) ?? [];
      const fresh = freshOf(key, same);
      const repeat = options.reuse ? (lastUsed.get(key) ?? same[0]) : undefined;
      const found = fresh ?? repeat;
      if (found) {
        used.add(found);
        lastUsed.set(key, found);
        return { ok: true, exchange: found, exact: true };
      }
      const ofMethod = byMethod.get(method) ?? [];
      const unused = ofMethod.filter((exchange) => !used.has(exchange));
      if (loose && unused.length > 0) {
        const nearest = nearestOf(unused, params)!;
        used.add(nearest);
        return { ok: true, exchange: nearest, exact: false };
      }
      const recordedMethods = [...byMethod.keys()];
      if (ofMethod.length === 0) return { ok: false, reason: 'unknown-method', method, recordedMethods };
      const nearest = nearestOf(ofMethod, params, true);
      const target = targetOf(params);
      const recordedTargets = [...new Set(ofMethod.map((exchange) => targetOf(paramsOf(exchange.request.message))).filter((name) => name !== undefined))];
      return {
        ok: false,
        reason: same.length > 0 ? 'used-up' : 'no-match',
        method,
        nearest: nearest ? paramsOf(nearest.request.message) : undefined,
        recordedMethods,
        ...(target !== undefined && !nearest ? { unknownTarget: { name: target, recorded: recordedTargets } } : {}),
      };
    },
    /** Recorded exchanges never matched. */
    unused(): RecordedExchange[] {
      return exchanges.filter((exchange) => !used.has(exchange));
    },
    wasUsed(exchange: RecordedExchange): boolean {
      return used.has(exchange);
    },
  };
}

export type Matcher = ReturnType<typeof createMatcher>;
