// What a rule does to the answer of a request it passed on (HTTP): holds its events apart, cuts the
// stream before the answer, spoils the answer, or puts noise before it. It sees the body as the
// server sent it and says what to deliver, each piece with the mark its frame carries in the record.
import type { FrameMark } from '../wire/http/exchange-tap.js';
import { corruptLine } from './frame-edits.js';
import type { JsonRpcId } from '../protocol/jsonrpc.js';
import type { FaultAction, FaultRule } from './rule-types.js';
import { createSseBlocks, sseData, sseEvent, withSseData } from './sse-blocks.js';

export type AnswerAction = Extract<FaultAction, { name: 'slow-stream' | 'cut-stream' | 'corrupt' | 'noise' }>;

/** How the answer's body reads: SSE events, one JSON body, or something with no frame in it (a 202). */
export type AnswerBody = 'sse' | 'json' | 'other';

/** Where the shaped answer goes. */
export interface AnswerOutlet {
  /** Bytes to the client; `mark` is for the frames they complete. */
  deliver(bytes: Buffer, mark?: FrameMark): void;
  /** The answer is whole: the response ends. */
  finish(): void;
  /** The connection closes now, mid-answer; `why` says so in the record. */
  cut(why: string): void;
}

export interface AnswerShaper {
  /** The head went out. */
  start(): void;
  push(chunk: Buffer): void;
  end(): void;
  /** The exchange is over (the client left): nothing more is delivered. */
  stop(): void;
}

/** Whether an SSE event's data is the answer to request `id` (a result or an error). */
function answers(data: string | undefined, id: JsonRpcId): boolean {
  if (data === undefined) return false;
  try {
    const message = JSON.parse(data) as { id?: unknown; method?: unknown };
    return message.method === undefined && message.id === id;
  } catch {
    return false;
  }
}

export function createAnswerShaper(rule: FaultRule & { action: AnswerAction }, id: JsonRpcId, body: AnswerBody, outlet: AnswerOutlet): AnswerShaper {
  const { action } = rule;
  const fault = { fault: rule.text };
  const made = { origin: 'spy', fault: rule.text };
  let stopped = false;
  if (body === 'other') {
    return { start: () => {}, push: (chunk) => stopped || outlet.deliver(chunk), end: () => stopped || outlet.finish(), stop: () => void (stopped = true) };
  }
  const cut = (why: string) => {
    if (stopped) return;
    stopped = true;
    outlet.cut(why);
  };

  // A JSON body is the answer whole: read to its end, then delivered (late, spoiled, after noise) or never.
  if (body === 'json') {
    const chunks: Buffer[] = [];
    let timer: NodeJS.Timeout | undefined;
    const deliverBody = () => {
      const text = Buffer.concat(chunks).toString('utf8');
      if (action.name === 'corrupt') outlet.deliver(Buffer.from(corruptLine(text, action.mode)), { ...made, original: text });
      else if (action.name === 'noise') outlet.deliver(Buffer.from(`${action.text}\n${text}`), { ...made, original: text });
      else outlet.deliver(Buffer.from(text), fault);
      outlet.finish();
    };
    return {
      start: () => action.name === 'cut-stream' && cut(`the fault rule ${rule.text} closed the connection before the answer`),
      push: (chunk) => void chunks.push(chunk),
      end() {
        if (stopped) return;
        if (action.name === 'slow-stream') timer = setTimeout(deliverBody, action.ms);
        else deliverBody();
      },
      stop() {
        stopped = true;
        clearTimeout(timer);
      },
    };
  }

  const blocks = createSseBlocks();
  let messages = 0;
  let noiseSent = false;
  // slow-stream: events wait their turn; each goes `ms` after the one before.
  const queue: Buffer[] = [];
  let ended = false;
  let timer: NodeJS.Timeout | undefined;
  const pump = () => {
    if (stopped || timer !== undefined) return;
    if (queue.length === 0) {
      if (ended) outlet.finish();
      return;
    }
    timer = setTimeout(
      () => {
        timer = undefined;
        if (stopped) return;
        const block = queue.shift()!;
        outlet.deliver(block, sseData(block) === undefined ? undefined : fault);
        pump();
      },
      (action as { ms: number }).ms,
    );
  };

  const onBlock = (block: Buffer) => {
    if (stopped) return;
    const data = sseData(block);
    if (action.name === 'slow-stream') {
      queue.push(block);
      return pump();
    }
    if (action.name === 'cut-stream') {
      if (answers(data, id)) return cut(`the fault rule ${rule.text} closed the connection before the answer, after ${messages} message(s)`);
      outlet.deliver(block);
      // A message is an event with data: a priming event (an id, empty data) is not one.
      if (data !== undefined && data !== '' && ++messages >= action.messages)
        cut(`the fault rule ${rule.text} closed the connection after ${messages} message(s), before the answer`);
      return;
    }
    if (action.name === 'noise' && !noiseSent) {
      noiseSent = true;
      outlet.deliver(sseEvent(action.text), made);
    }
    if (action.name === 'corrupt' && answers(data, id)) outlet.deliver(withSseData(block, corruptLine(data!, action.mode)), { ...made, original: data });
    else outlet.deliver(block);
  };

  return {
    start() {
      if (action.name === 'cut-stream' && action.messages === 0) cut(`the fault rule ${rule.text} closed the connection at once, before the answer`);
    },
    push: (chunk) => blocks.push(chunk).forEach(onBlock),
    end() {
      if (stopped) return;
      const rest = blocks.end();
      if (action.name === 'slow-stream') {
        if (rest.length > 0) queue.push(rest);
        ended = true;
        return pump();
      }
      if (rest.length > 0) outlet.deliver(rest);
      outlet.finish();
    },
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
