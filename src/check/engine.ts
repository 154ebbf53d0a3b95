import { messageOf, isFrameEntry } from '../record/frame-message.js';
import type { InterceptEntry, RecordEntry } from '../record/schema.js';
import type { JsonObject } from '../protocol/jsonrpc.js';
import { isExchangeSession } from '../wire/http/exchange-sessions.js';
import { createOwedAnswers } from '../record/owed-answers.js';
import { learnFromFrame, newSessionFacts } from '../record/session-facts.js';
import { ruleById, ruleFamilies } from './rules.js';
import type { CheckOptions, Finding, Level, Report, SessionState } from './types.js';

export interface CheckSummary {
  entries: number;
  errors: number;
  warnings: number;
  findings: Finding[];
  /** Lines skipped unread (over the line limit, not an entry): not checked. */
  skipped?: number;
}

/**
 * Runs every rule over a recording, entry by entry, following each session's facts (revision,
 * capabilities, tools); session-level rules speak at the end. Levels from --rule override defaults.
 */
/** An intercept event after which the request it names was never passed on (dropped, or answered with an error at the console). */
function heldBackAtIntercept(entry: RecordEntry): entry is InterceptEntry {
  return entry.kind === 'intercept' && (entry.action === 'drop' || entry.action === 'error');
}

export function createChecker(overrides: ReadonlyMap<string, Level> = new Map(), options: CheckOptions = {}) {
  const sessions = new Map<string, SessionState>();
  const findings: Finding[] = [];
  const said = new Set<string>();
  const servers = new Map<string, Map<string, string>>();
  /** Frames a fault rule acted on (session|seq): what is wrong with them is the spy's doing, on purpose. */
  const faulted = new Set<string>();
  /** Records made before HTTP frames were marked: a fault event comes before the unmarked request it names (method|id). */
  const faultsAhead = new Set<string>();
  let entries = 0;

  const answers = createOwedAnswers();
  /** What the server of each spy run listed (its tools by name), by the URL the run forwarded to. */
  const listedByTarget = new Map<string, Map<string, JsonObject>>();
  let target = '';
  const listedTools = () => {
    let tools = listedByTarget.get(target);
    if (!tools) listedByTarget.set(target, (tools = new Map()));
    return tools;
  };
  const stateOf = (session: string): SessionState => {
    let state = sessions.get(session);
    if (!state) {
      state = { facts: newSessionFacts(session), answers, reported: new Set(), options, servers };
      // Each stateless exchange is a session of its own: a call is checked against what an earlier exchange listed.
      if (isExchangeSession(session)) state.serverTools = listedTools();
      sessions.set(session, state);
    }
    return state;
  };

  const reporter =
    (session: string | undefined, seq: number | undefined, lineNo: number | undefined): Report =>
    (rule, message, at = {}) => {
      const level = overrides.get(rule) ?? ruleById.get(rule)?.severity ?? 'error';
      if (level === 'off') return;
      if (faulted.has(`${session ?? ''}|${at.seq ?? seq}`)) return;
      const finding: Finding = { rule, level, message, seq: at.seq ?? seq, lineNo: at.lineNo ?? lineNo, session };
      const key = `${rule}|${session}|${finding.seq}|${message}`;
      if (said.has(key)) return;
      said.add(key);
      findings.push(finding);
    };

  return {
    add(entry: RecordEntry, lineNo: number) {
      entries++;
      const session = typeof entry.session === 'string' ? entry.session : '';
      const state = stateOf(session);
      const report = reporter(entry.session, entry.seq, lineNo);
      if ((entry.kind === 'fault' || heldBackAtIntercept(entry)) && entry.stream === 'c2s')
        faultsAhead.add(`${entry.method}|${JSON.stringify(entry.id ?? null)}`);
      if (entry.kind === 'request' && entry.dir === 'c2s' && faultsAhead.delete(`${entry.method}|${JSON.stringify(entry.id ?? null)}`))
        faulted.add(`${session}|${entry.seq}`);
      if (!isFrameEntry(entry)) {
        // An HTTP spy starting: its stateless exchanges reach the server behind this URL.
        if (entry.kind === 'http' && typeof entry.target === 'string') target = entry.target;
        answers.add(entry, undefined, lineNo);
        for (const family of ruleFamilies) family.event?.({ entry, lineNo, message: undefined, state, report });
        return;
      }
      // A frame a fault rule acted on, or one the intercept console made or changed, is not the peer's doing.
      if (typeof entry.fault === 'string' || (typeof entry.intercept === 'string' && entry.origin === 'spy')) faulted.add(`${session}|${entry.seq}`);
      const message = messageOf(entry);
      learnFromFrame(state.facts, entry, message);
      if (state.serverTools && entry.method === 'tools/list') for (const [name, tool] of state.facts.tools) state.serverTools.set(name, tool);
      answers.add(entry, message, lineNo);
      for (const family of ruleFamilies) family.frame?.({ entry, lineNo, message, state, report });
    },
    finish(): CheckSummary {
      for (const [session, state] of sessions) {
        for (const family of ruleFamilies) family.end?.({ state, report: reporter(session || undefined, undefined, undefined) });
      }
      findings.sort((a, b) => (a.lineNo ?? Infinity) - (b.lineNo ?? Infinity));
      const errors = findings.filter((finding) => finding.level === 'error').length;
      return { entries, errors, warnings: findings.length - errors, findings };
    },
  };
}
