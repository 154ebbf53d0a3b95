// Faults on a stdio session: each line of either side is read whole, matched against the rules, and
// passed on, held, answered in the peer's place or spoiled. Used only when rules exist: without them the
// transport forwards chunks untouched and this file is never loaded into the path.
import type { FaultEntry, FrameEntry } from '../record/schema.js';
import { corruptLine, errorAnswer, idKey, readFrame, toolErrorAnswer } from './frame-edits.js';
import type { JsonRpcId } from '../protocol/jsonrpc.js';
import type { FaultMatcher, FrameFacts } from './matcher.js';
import type { CorruptMode, FaultRule } from './rule-types.js';

type Side = 'c2s' | 's2c';
const methodKey = Buffer.from('"method"');
const other = (dir: Side): Side => (dir === 'c2s' ? 's2c' : 'c2s');

/** Where bytes can go: the transport's ends. */
export interface FaultIo {
  /** Writes toward a side's peer: c2s to the server's stdin, s2c to the client's stdout. */
  write(dir: Side, bytes: Buffer): void;
  /** Closes the server's stdio as a crash would. */
  disconnect(): void;
}

/** What the record is told: whole lines with their marks, and fault events. */
export interface FaultRecorder {
  line(dir: Side, bytes: Buffer, mark?: Partial<FrameEntry>): void;
  fault(fields: Partial<FaultEntry>): void;
  stderr(bytes: Buffer): void;
}

export interface StdioFaults {
  chunk(dir: Side, chunk: Buffer): void;
  /** A side ended: its last unfinished line goes on; `done` once nothing of that side is still held. */
  end(dir: Side, done: () => void): void;
  /** The session is over: timers stop, what is held is let go. */
  stop(): void;
}

function describe(rule: FaultRule, facts: FrameFacts, text: string): Partial<FaultEntry> {
  const fields: Partial<FaultEntry> = { rule: rule.text, action: rule.action.name, stream: facts.dir, method: facts.method!, text };
  if (facts.isRequest) fields.id = facts.id ?? null;
  if (facts.tool !== undefined) fields.tool = facts.tool;
  return fields;
}

export function createStdioFaults(matcher: FaultMatcher, random: () => number, io: FaultIo, record: FaultRecorder): StdioFaults {
  const rest: Record<Side, Buffer> = { c2s: Buffer.alloc(0), s2c: Buffer.alloc(0) };
  /** Requests a timeout holds, by the side that sent them. */
  const held: Record<Side, Map<string, FaultRule>> = { c2s: new Map(), s2c: new Map() };
  /** Answers to spoil, by the side they will come from. */
  const spoil: Record<Side, Map<string, { rule: FaultRule; mode: CorruptMode }>> = { c2s: new Map(), s2c: new Map() };
  const timers = new Set<NodeJS.Timeout>();
  const waiting: Record<Side, (() => void) | undefined> = { c2s: undefined, s2c: undefined };
  let gone = false;

  const pass = (dir: Side, bytes: Buffer, mark?: Partial<FrameEntry>) => {
    if (gone) return;
    io.write(dir, bytes);
    record.line(dir, bytes, mark);
  };
  /** A line the spy made, delivered back to the side `dir` came from. */
  const answer = (dir: Side, text: string, rule: FaultRule) => {
    const bytes = Buffer.from(`${text}\n`);
    if (gone) return;
    io.write(other(dir), bytes);
    record.line(other(dir), bytes, { origin: 'spy', fault: rule.text });
  };
  const settle = (dir: Side) => {
    const pending = [...timers].some((timer) => (timer as unknown as { dir?: Side }).dir === dir);
    if (!pending && waiting[dir]) {
      const done = waiting[dir]!;
      waiting[dir] = undefined;
      done();
    }
  };

  function faultLine(dir: Side, whole: Buffer, line: Buffer, facts: FrameFacts, rule: FaultRule) {
    const { action } = rule;
    const mark = { fault: rule.text };
    const id = facts.id as JsonRpcId;
    const owed = facts.isRequest;
    const noted = (text: string) => record.fault(describe(rule, facts, text));
    if (action.name === 'delay') {
      const ms = Math.max(0, action.ms + (action.jitterMs > 0 ? (random() * 2 - 1) * action.jitterMs : 0));
      noted(`held ${Math.round(ms)}ms, then passed on`);
      const timer = setTimeout(() => {
        timers.delete(timer);
        pass(dir, whole, mark);
        settle(dir);
      }, ms);
      (timer as unknown as { dir: Side }).dir = dir;
      timers.add(timer);
      return;
    }
    // The frame as sent is in the record, marked, whether or not it goes on.
    const seen = () => record.line(dir, whole, mark);
    if ((action.name === 'error' || action.name === 'tool-error') && owed) {
      seen();
      noted(`answered in the ${dir === 'c2s' ? 'server' : 'client'}'s place; not passed on`);
      answer(dir, action.name === 'error' ? errorAnswer(id, action.code, action.message) : toolErrorAnswer(id, action.text), rule);
      return;
    }
    if (action.name === 'timeout' && owed) {
      seen();
      held[dir].set(idKey(id), rule);
      noted('held unanswered until cancelled or the session ends; not passed on');
      return;
    }
    if (action.name === 'corrupt') {
      if (owed) {
        spoil[other(dir)].set(idKey(id), { rule, mode: action.mode });
        noted(`passed on; its answer will be spoiled (${action.mode})`);
        pass(dir, whole, mark);
        return;
      }
      const spoiled = corruptLine(line.toString('utf8'), action.mode);
      noted(`spoiled (${action.mode})`);
      io.write(dir, Buffer.from(`${spoiled}\n`));
      record.line(dir, Buffer.from(`${spoiled}\n`), { origin: 'spy', fault: rule.text, original: line.toString('utf8') });
      return;
    }
    if (action.name === 'disconnect') {
      seen();
      noted("the server's stdio closed; not passed on");
      gone = true;
      io.disconnect();
      return;
    }
    if (action.name === 'noise') {
      const text = Buffer.from(`${action.text}\n`);
      noted(`${action.stream === 'stdout' ? "a line on the server's stdout" : 'a line on stderr'}, then the frame passed on`);
      if (action.stream === 'stderr') record.stderr(text);
      else if (!gone) {
        io.write('s2c', text);
        record.line('s2c', text, { origin: 'spy', fault: rule.text });
      }
      pass(dir, whole, mark);
      return;
    }
    // drop, or an answer with no request to answer: delivered to no one.
    seen();
    noted(owed || action.name === 'drop' ? 'dropped; not passed on' : `${action.name} has nothing to answer on a notification: dropped`);
  }

  /**
   * Whether a line can concern a rule: it names a method a rule may match (or a cancellation of a held
   * request), or answers a request whose answer is to be spoiled. Only such a line is parsed.
   */
  const mayConcern = (dir: Side, whole: Buffer) => spoil[dir].size > 0 || (whole.includes(methodKey) && (held[dir].size > 0 || matcher.mayMatch(whole)));

  /**
   * One whole line: false when it passes untouched (the caller passes such lines on in runs, one
   * write for many); else it is acted on here, after `before()` has passed on the lines before it.
   */
  function onLine(dir: Side, whole: Buffer, before: () => void): boolean {
    if (!mayConcern(dir, whole)) return false;
    const eolLength = whole.length >= 2 && whole[whole.length - 2] === 0x0d ? 2 : 1;
    const line = whole.subarray(0, whole.length - eolLength);
    const read = readFrame(line.toString('utf8'), dir);
    if (read.cancels !== undefined && held[dir].has(idKey(read.cancels))) {
      before();
      const rule = held[dir].get(idKey(read.cancels))!;
      held[dir].delete(idKey(read.cancels));
      record.line(dir, whole, { fault: rule.text });
      record.fault(describe(rule, read.facts!, `the held request ${idKey(read.cancels)} was cancelled; the cancellation is not passed on either`));
      return true;
    }
    if (read.responseId !== undefined && spoil[dir].has(idKey(read.responseId))) {
      before();
      const { rule, mode } = spoil[dir].get(idKey(read.responseId))!;
      spoil[dir].delete(idKey(read.responseId));
      const spoiled = Buffer.from(`${corruptLine(line.toString('utf8'), mode)}\n`);
      if (gone) return true;
      io.write(dir, spoiled);
      record.line(dir, spoiled, { origin: 'spy', fault: rule.text, original: line.toString('utf8') });
      return true;
    }
    const decision = read.facts ? matcher.decide(read.facts) : undefined;
    if (!decision) return false;
    before();
    faultLine(dir, whole, line, read.facts!, decision.rule);
    return true;
  }

  return {
    chunk(dir, chunk) {
      const data = rest[dir].length > 0 ? Buffer.concat([rest[dir], chunk]) : chunk;
      // Lines no rule acts on go on together, as they came: one write (and one hand-over) per run.
      let run = 0;
      let start = 0;
      const passRun = () => {
        if (start > run) pass(dir, data.subarray(run, start));
      };
      for (let at = data.indexOf(0x0a); at !== -1; at = data.indexOf(0x0a, start)) {
        if (onLine(dir, data.subarray(start, at + 1), passRun)) run = at + 1;
        start = at + 1;
      }
      passRun();
      rest[dir] = Buffer.from(data.subarray(start));
    },
    end(dir, done) {
      if (rest[dir].length > 0) pass(dir, rest[dir]);
      rest[dir] = Buffer.alloc(0);
      waiting[dir] = done;
      settle(dir);
    },
    stop() {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      for (const dir of ['c2s', 's2c'] as const) settle(dir);
    },
  };
}
