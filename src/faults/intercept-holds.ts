// The frames --intercept holds, on either spy: each waits for a release (from the console, over the
// control socket) within bounds in time and count, past which it goes on as it was.
import type { EventFields, FrameEntry } from '../record/schema.js';
import { errorAnswer } from './frame-edits.js';
import type { JsonRpcId } from '../protocol/jsonrpc.js';
import { checkEditedFrame, heldFacts, type HeldFacts } from './intercept-frame.js';

/** How the console lets a held frame go. */
export type Release = { action: 'forward' } | { action: 'edit'; frame: string } | { action: 'drop' } | { action: 'error'; code?: number; message?: string };
export type ReleasedBy = 'console' | 'bound' | 'end';

/** What the transport is told to do with a frame it holds, the edit already checked. */
export type HoldOutcome = { action: 'forward' } | { action: 'edit'; line: string; original: string } | { action: 'drop' } | { action: 'error'; answer: string };

/** A frame held, as the console is shown it. */
export interface HeldFrame extends HeldFacts {
  hold: number;
  /** The frame as its sender wrote it, without its line ending. */
  frame: string;
  heldAt: number;
  /** When the bound lets it go as it was (ms since the epoch). */
  deadline: number;
}

export interface InterceptOptions {
  /** The filter as the user wrote it: the record names it so. */
  filter: string;
  test: (entry: FrameEntry) => boolean;
  holdMs: number;
  maxHeld: number;
}

/** What the control socket's clients are told: frames held, and frames let go. */
export type HoldNews = { type: 'held'; frame: HeldFrame } | { type: 'released'; hold: number; action: HoldOutcome['action']; by: ReleasedBy };

export const defaultErrorAnswer = { code: -32603, message: 'refused at the mcp-spy intercept' };

const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;
/** How many requests' hold times are kept for their answers. */
const maxExchanges = 1000;

const consoleTexts: Record<HoldOutcome['action'], string> = {
  forward: 'passed on as it was, from the console',
  edit: 'edited at the console, then passed on (the frame as sent is its original)',
  drop: 'dropped at the console: never delivered',
  error: 'answered with an error from the console; never passed on',
};

export interface Holds {
  readonly options: InterceptOptions;
  /** Holds a frame; `settle` is called once, with what to do with it. */
  hold(entry: FrameEntry, frame: string, settle: (outcome: HoldOutcome) => void, extra?: EventFields<'intercept'>): HeldFrame;
  release(hold: number, release: Release, by?: ReleasedBy): { ok: true; text: string } | { ok: false; message: string };
  held(): HeldFrame[];
  /** The session is over: every frame still held goes on as it was. */
  releaseAll(): void;
  /** News for a console; returns how to stop. While one listens, stderr says nothing of holds. */
  listen(listener: (news: HoldNews) => void): () => void;
}

export function createHolds(
  options: InterceptOptions,
  out: { event: (fields: EventFields<'intercept'>) => void; say: (line: string) => void; now?: () => number },
): Holds {
  const now = out.now ?? Date.now;
  const holds = new Map<number, { frame: HeldFrame; settle: (outcome: HoldOutcome) => void; timer: NodeJS.Timeout; extra: EventFields<'intercept'> }>();
  const listeners = new Set<(news: HoldNews) => void>();
  /**
   * How long each request was held, by its direction and id: --hold-timeout bounds the whole
   * exchange, so its answer is held for what is left of the bound (held a bound each, a request and
   * its answer kept an unattended client waiting 60 s, the SDK's own request timeout). Only the
   * latest are kept: an answer the filter does not hold leaves its request's entry behind.
   */
  const spentByRequest = new Map<string, number>();
  const exchangeKey = (dir: string, id: unknown) => `${dir} ${JSON.stringify(id)}`;
  const boundOf = (facts: HeldFacts): number => {
    if (facts.kind === 'request' || facts.kind === 'notification' || facts.id === undefined || facts.id === null) return options.holdMs;
    const key = exchangeKey(facts.dir === 'c2s' ? 's2c' : 'c2s', facts.id);
    const spent = spentByRequest.get(key);
    spentByRequest.delete(key);
    return spent === undefined ? options.holdMs : Math.max(0, options.holdMs - spent);
  };
  let last = 0;
  const tell = (news: HoldNews) => {
    for (const listener of listeners) listener(news);
  };
  const described = (frame: HeldFrame, extra: EventFields<'intercept'>): EventFields<'intercept'> => ({
    filter: options.filter,
    hold: frame.hold,
    stream: frame.dir,
    ...(frame.method !== undefined ? { method: frame.method } : {}),
    ...(frame.id !== undefined ? { id: frame.id } : {}),
    ...(frame.tool !== undefined ? { tool: frame.tool } : {}),
    ...extra,
  });

  function settleHold(hold: number, outcome: HoldOutcome, by: ReleasedBy, text: string) {
    const held = holds.get(hold)!;
    holds.delete(hold);
    clearTimeout(held.timer);
    if (held.frame.kind === 'request' && held.frame.id !== undefined) {
      spentByRequest.set(exchangeKey(held.frame.dir, held.frame.id), now() - held.frame.heldAt);
      if (spentByRequest.size > maxExchanges) spentByRequest.delete(spentByRequest.keys().next().value!);
    }
    out.event({ ...described(held.frame, held.extra), action: outcome.action, by, heldMs: now() - held.frame.heldAt, text });
    if (by !== 'console' && listeners.size === 0) out.say(`#${hold} ${text}`);
    tell({ type: 'released', hold, action: outcome.action, by });
    held.settle(outcome);
  }

  function outcomeOf(frame: HeldFrame, release: Release): HoldOutcome | { problem: string } {
    if (release.action === 'forward' || release.action === 'drop') return { action: release.action };
    if (release.action === 'edit') {
      const checked = checkEditedFrame(release.frame);
      return checked.ok ? { action: 'edit', line: checked.line, original: frame.frame } : { problem: checked.message };
    }
    if (frame.kind !== 'request') return { problem: `only a request can be answered with an error; #${frame.hold} is a ${frame.kind} (drop it instead)` };
    const code = release.code ?? defaultErrorAnswer.code;
    if (!Number.isInteger(code)) return { problem: 'an error code is a whole number, such as -32603' };
    return { action: 'error', answer: errorAnswer(frame.id as JsonRpcId, code, release.message ?? defaultErrorAnswer.message) };
  }

  return {
    options,
    hold(entry, text, settle, extra = {}) {
      const at = now();
      const facts = heldFacts(entry);
      const boundMs = boundOf(facts);
      const frame: HeldFrame = { ...facts, hold: ++last, frame: text, heldAt: at, deadline: at + boundMs };
      // The oldest goes on as it was when one more would pass the bound: a spy nobody attends never hangs its client.
      if (holds.size >= options.maxHeld) {
        const oldest = holds.keys().next().value!;
        settleHold(oldest, { action: 'forward' }, 'bound', `more than ${options.maxHeld} frames held (--max-held): passed on as it was`);
      }
      const bound =
        boundMs === options.holdMs
          ? `held ${seconds(boundMs)} (--hold-timeout) with no release`
          : `held ${seconds(boundMs)} with no release (what its request's hold left of --hold-timeout ${seconds(options.holdMs)})`;
      const timer = setTimeout(() => settleHold(frame.hold, { action: 'forward' }, 'bound', `${bound}: passed on as it was`), boundMs);
      holds.set(frame.hold, { frame, settle, timer, extra });
      const what = [
        frame.method ?? frame.kind,
        frame.tool !== undefined ? `tool=${frame.tool}` : '',
        frame.id !== undefined ? `id=${JSON.stringify(frame.id)}` : '',
      ]
        .filter(Boolean)
        .join(' ');
      out.event({ ...described(frame, extra), action: 'hold', text: `held until released from mcp-spy ui, or for ${seconds(boundMs)}` });
      if (listeners.size === 0)
        out.say(
          `holding #${frame.hold} ${frame.dir === 'c2s' ? '->' : '<-'} ${what}: release it in mcp-spy ui (forward, edit, drop, error); it goes on as it was in ${seconds(boundMs)}`,
        );
      tell({ type: 'held', frame });
      return frame;
    },
    release(hold, release, by = 'console') {
      const held = holds.get(hold);
      if (!held) return { ok: false, message: `no frame #${hold} is held (it was released already, or never held)` };
      const outcome = outcomeOf(held.frame, release);
      if ('problem' in outcome) return { ok: false, message: outcome.problem };
      settleHold(hold, outcome, by, consoleTexts[outcome.action]);
      return { ok: true, text: `#${hold} ${consoleTexts[outcome.action]}` };
    },
    held: () => [...holds.values()].map((held) => held.frame),
    releaseAll() {
      for (const hold of [...holds.keys()]) settleHold(hold, { action: 'forward' }, 'end', 'the session ended: let go as it was');
    },
    listen(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
