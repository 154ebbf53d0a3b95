import { isObject, pick, type JsonRpcId } from '../../protocol/jsonrpc.js';

/** The methods whose result may be `input_required` (2026-07-28, multi-round-trip requests). */
export const multiRoundMethods: ReadonlySet<string> = new Set(['tools/call', 'prompts/get', 'resources/read']);

/** The first request of a logical call, and which round a later request of it is (the first is round 1). */
export interface CallOrigin {
  seq: number;
  id: JsonRpcId;
  method: string;
  tool?: string;
  round: number;
}

interface OpenCall {
  subject: string;
  origin: CallOrigin;
  /** The requestState the server sent with its input_required result, to be echoed byte for byte. */
  requestState?: string;
}

/** Whether a result asks the client for input before it can complete. */
export function isInputRequired(result: unknown): boolean {
  return pick(result, 'resultType') === 'input_required';
}

/** Whether a request is a retry: it carries the client's answers or the server's state back. */
export function isRetry(params: unknown): boolean {
  return isObject(params) && ('inputResponses' in params || 'requestState' in params);
}

/**
 * Links the rounds of multi-round-trip calls in one session: a result `input_required`, then the
 * client's retry (a new id) with `inputResponses` and `requestState`, until a result completes.
 * A retry finds its call by the requestState it echoes, else by method and subject (tool, prompt, URI).
 */
export function createRoundTrips() {
  const open: OpenCall[] = [];
  /** Calls a client never continued are forgotten past this many, oldest first: memory stays bounded. */
  const kept = 1000;

  return {
    /** A result `input_required` for the request that was round `origin.round` of its call. */
    inputRequired(subject: string, origin: CallOrigin, result: unknown) {
      const at = open.findIndex((call) => call.origin.seq === origin.seq);
      if (at !== -1) open.splice(at, 1);
      const requestState = pick(result, 'requestState');
      open.push(typeof requestState === 'string' ? { subject, origin, requestState } : { subject, origin });
      if (open.length > kept) open.shift();
    },
    /** The call a retry continues (its origin, this round), and whether it echoed another requestState. */
    retry(subject: string, params: unknown): { origin: CallOrigin; mismatch: boolean } | undefined {
      const state = pick(params, 'requestState');
      const same = open.filter((call) => call.subject === subject);
      const call = same.find((candidate) => candidate.requestState !== undefined && candidate.requestState === state) ?? same.at(-1);
      if (!call) return undefined;
      open.splice(open.indexOf(call), 1);
      const mismatch = call.requestState !== undefined && state !== call.requestState;
      return { origin: { ...call.origin, round: call.origin.round + 1 }, mismatch };
    },
    /** Calls still waiting for a retry. */
    get size() {
      return open.length;
    },
  };
}

export type RoundTrips = ReturnType<typeof createRoundTrips>;
