import { isObject, type JsonObject } from '../protocol/jsonrpc.js';
import { isKnownRevision } from '../protocol/revisions.js';
import { withoutIgnored } from '../recording/ignore.js';
import { cloneJson, previewJson, withId } from '../recording/json.js';
import type { MatchOutcome } from '../recording/matcher.js';

/** Requests answered from the recording whatever their params, as often as asked: the session's start. */
export const initializationMethods = ['initialize', 'server/discover'] as const;

/** Error codes of a miss: a method never recorded is "method not found", a known one with other params "invalid params". */
const missCodes = { 'unknown-method': -32601, 'no-match': -32602, 'used-up': -32602 } as const;

/** The recorded initialize result, with the revision the client asked for when it is one we know. */
export function initializeAnswer(recorded: JsonObject, request: JsonObject): JsonObject {
  const answer = cloneJson(withId(recorded, request.id));
  const asked = isObject(request.params) ? request.params.protocolVersion : undefined;
  if (request.method === 'initialize' && isObject(answer.result) && isKnownRevision(asked)) answer.result.protocolVersion = asked;
  return answer;
}

/** The JSON-RPC error a mock answers a request it has no recording for: names the method, shows the nearest params. */
export function missAnswer(request: JsonObject, miss: Extract<MatchOutcome, { ok: false }>, ignores: readonly string[]): JsonObject {
  const params = (withoutIgnored({ params: request.params }, ignores) as { params?: unknown }).params;
  const nearest = miss.nearest === undefined ? undefined : (withoutIgnored({ params: miss.nearest }, ignores) as { params?: unknown }).params;
  const why = {
    'unknown-method': `the recording has no ${miss.method} request (recorded: ${miss.recordedMethods.join(', ') || 'none'})`,
    'no-match': miss.unknownTarget
      ? `the recording has no ${miss.method} of ${previewJson(miss.unknownTarget.name)} (recorded: ${miss.unknownTarget.recorded.map((name) => previewJson(name)).join(', ') || 'none'})`
      : `no recorded ${miss.method} request has these params ${previewJson(params)}; nearest recorded params: ${previewJson(nearest)}`,
    'used-up': `every recorded answer to ${miss.method} ${previewJson(params)} was used already (--reuse answers again)`,
  }[miss.reason];
  return {
    jsonrpc: '2.0',
    id: request.id ?? null,
    error: {
      code: missCodes[miss.reason],
      message: `mcp-spy mock: no recorded answer for ${miss.method}: ${why}`,
      data: { method: miss.method, params, nearest, reason: miss.reason },
    },
  };
}

/** Recorded progress notifications name the recorded progress token; the live client's is used instead. */
export function withLiveProgressToken(message: JsonObject, token: unknown): JsonObject {
  if (token === undefined || message.method !== 'notifications/progress' || !isObject(message.params)) return message;
  return { ...message, params: { ...message.params, progressToken: token } };
}
