// Faults on the HTTP spy: a POST's body is read whole, matched against the rules, then forwarded
// (at once or late) or answered here. Used only when rules exist: without them the proxy never calls it.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FaultEntry } from '../record/schema.js';
import type { ExchangeMarks, ExchangeTap, ExchangeStart } from '../wire/http/exchange-tap.js';
import type { AnswerAction } from './answer-shaper.js';
import { corruptLine, errorAnswer, idKey, readFrame, toolErrorAnswer } from './frame-edits.js';
import type { JsonRpcId } from '../protocol/jsonrpc.js';
import { createFaultMatcher } from './matcher.js';
import { seededRandom } from './random.js';
import type { FaultRule } from './rule-types.js';
import type { FrameFacts } from './matcher.js';
import { reshapeResponse } from './shaped-response.js';

/** The actions that pass a request on and reshape its answer, and what each says it does. */
const reshaping: { [name in AnswerAction['name']]: (action: Extract<AnswerAction, { name: name }>) => string } = {
  'slow-stream': (action) => `passed on; each event of its answer held ${action.ms}ms after the one before`,
  'cut-stream': (action) => `passed on; the connection closes before its answer${action.messages > 0 ? `, after at most ${action.messages} message(s)` : ''}`,
  corrupt: (action) => `passed on; its answer spoiled (${action.mode})`,
  noise: (action) => `passed on; ${JSON.stringify(action.text)} put before its answer`,
};
const reshapes = (rule: FaultRule): rule is FaultRule & { action: AnswerAction } => rule.action.name in reshaping;

/** The proxy's side: the exchange, how to forward it (with the body already read), how to tapExchange it. */
export type HttpFaultHook = (
  req: IncomingMessage,
  res: ServerResponse,
  forward: (held?: Buffer, marks?: ExchangeMarks, wrap?: (tap: ExchangeTap) => ExchangeTap) => void,
  tapExchange: (start: ExchangeStart) => ExchangeTap,
) => void;

const json = { 'content-type': 'application/json' };

export function httpFaultHook(plan: { rules: FaultRule[]; seed: number }, fault: (fields: Partial<FaultEntry>) => void): HttpFaultHook {
  const random = seededRandom(plan.seed);
  const matcher = createFaultMatcher(plan.rules, random);
  /** Requests held by timeout (by id), with their rule: their cancellation is not forwarded either. */
  const held = new Map<string, FaultRule>();
  return (req, res, forward, tapExchange) => {
    if (req.method !== 'POST') return forward();
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const read = readFrame(body.toString('utf8'), 'c2s');
      const cancelled = read.cancels !== undefined ? held.get(idKey(read.cancels)) : undefined;
      if (cancelled) {
        held.delete(idKey(read.cancels!));
        return faultExchange(cancelled, read.facts!).answerHere(
          202,
          undefined,
          `the held request ${idKey(read.cancels!)} was cancelled; the cancellation is not passed on either`,
        );
      }
      const decision = read.facts ? matcher.decide(read.facts) : undefined;
      if (!decision) return forward(body);
      const { rule } = decision;
      const facts = read.facts!;
      const id = facts.id as JsonRpcId;
      const { noted, answerHere, holdOpen, marks } = faultExchange(rule, facts);
      const { action } = rule;
      if (reshapes(rule) && facts.isRequest) {
        noted((reshaping[rule.action.name] as (action: AnswerAction) => string)(rule.action));
        forward(body, { request: marks.request }, reshapeResponse(res, rule, id, noted));
      } else if (action.name === 'corrupt') {
        // A notification has no answer: the frame itself is spoiled on its way to the server.
        const original = body.toString('utf8');
        noted(`spoiled (${action.mode}), then passed on`);
        forward(Buffer.from(corruptLine(original, action.mode)), { request: { origin: 'spy', fault: rule.text, original } });
      } else if (reshapes(rule)) {
        noted(`${action.name} has no answer to act on: a notification is answered 202 without a body; passed on unchanged`);
        forward(body, { request: marks.request });
      } else if (action.name === 'delay') {
        const ms = Math.max(0, action.ms + (action.jitterMs > 0 ? (random() * 2 - 1) * action.jitterMs : 0));
        noted(`held ${Math.round(ms)}ms, then passed on`);
        setTimeout(() => forward(body, { request: marks.request }), ms);
      } else if (action.name === 'error' && facts.isRequest)
        answerHere(200, errorAnswer(id, action.code, action.message), "answered in the server's place; not passed on");
      else if (action.name === 'tool-error' && facts.isRequest)
        answerHere(200, toolErrorAnswer(id, action.text), "answered in the server's place; not passed on");
      else if (action.name === 'status') {
        answerHere(
          action.status,
          undefined,
          `answered HTTP ${action.status}; not passed on`,
          action.retryAfter !== undefined ? { 'retry-after': String(action.retryAfter) } : {},
        );
      } else if (action.name === 'expire-session') {
        // The request's own id: an answer the spy makes is well formed (an SDK server's 404 has id null).
        answerHere(404, errorAnswer(facts.isRequest ? id : null, -32001, 'Session not found'), 'answered 404 as for an expired session; not passed on');
      } else if (action.name === 'disconnect') {
        noted('the connection was reset; not passed on');
        req.socket.resetAndDestroy();
      } else if (action.name === 'timeout' && facts.isRequest) {
        held.set(idKey(id), rule);
        holdOpen('held unanswered until cancelled or the client gives up; not passed on');
      } else if (facts.isRequest) holdOpen('dropped: never passed on, never answered');
      else
        answerHere(
          202,
          undefined,
          action.name === 'drop' ? 'dropped: accepted, never passed on' : `${action.name} has nothing to answer on a notification: accepted, dropped`,
        );

      /** What a rule does with this exchange: its fault event, and the exchange recorded with its frames marked. */
      function faultExchange(rule: FaultRule, facts: FrameFacts) {
        const id = facts.id as JsonRpcId;
        // In the session the request names, beside its frames (replay and the console read them there).
        const session = req.headers['mcp-session-id'];
        const noted = (text: string) =>
          fault({
            rule: rule.text,
            action: rule.action.name,
            stream: 'c2s',
            method: facts.method!,
            ...(facts.isRequest ? { id } : {}),
            ...(facts.tool ? { tool: facts.tool } : {}),
            text,
            ...(typeof session === 'string' ? { session } : {}),
          });
        /** The request the rule matched carries `fault`; an answer the spy made carries `origin: "spy"` too. */
        const marks: ExchangeMarks = { request: { fault: rule.text }, response: { origin: 'spy', fault: rule.text } };
        const observed = () => {
          const observer = tapExchange({ method: 'POST', path: req.url ?? '/', headers: req.headers, marks });
          observer.requestChunk(body);
          observer.requestEnd();
          return observer;
        };
        // An exchange the spy answers itself is still recorded: the request as sent, the answer as made.
        const answerHere = (status: number, answer: string | undefined, text: string, headers: Record<string, string> = {}) => {
          noted(text);
          const observer = observed();
          const sent = { ...(answer !== undefined ? json : {}), ...headers };
          res.writeHead(status, sent);
          observer.response(status, sent);
          if (answer !== undefined) observer.responseChunk(Buffer.from(answer));
          res.end(answer);
          observer.responseEnd();
        };
        const holdOpen = (text: string) => {
          noted(text);
          const observer = observed();
          res.on('close', () => observer.failed({ stage: 'client', message: `held by the fault rule ${rule.text}; the client gave up` }));
        };
        return { noted, answerHere, holdOpen, marks };
      }
    });
  };
}
