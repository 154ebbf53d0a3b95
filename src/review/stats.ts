import { tableOf } from '../protocol/own-table.js';
import { isFrameEntry, messageOf } from '../record/frame-message.js';
import { createOwedAnswers } from '../record/owed-answers.js';
import type { FrameEntry, RecordEntry } from '../record/schema.js';
import { learnFromFrame, mayTell, newSessionFacts, type SessionFacts } from '../record/session-facts.js';
import { summarizeLatency, type LatencySummary } from './percentiles.js';
import { createRoundStats, type MultiRoundCall } from './round-stats.js';
import { createToolSizes, type ToolSize } from './tool-sizes.js';

/** Counts for one method or one tool. */
export interface CallStats {
  count: number;
  protocolErrors: number;
  toolErrors: number;
  latency?: LatencySummary;
}

export interface UnansweredRequest {
  session?: string;
  seq: number;
  dir?: string;
  id: unknown;
  method?: string;
  tool?: string;
}

/** What `stats` reports about a recording. Its tables are keyed by names from the wire and have no prototype. */
export interface RecordingStats {
  entries: number;
  frames: number;
  kinds: Record<string, number>;
  methods: Record<string, CallStats>;
  tools: Record<string, CallStats>;
  unanswered: UnansweredRequest[];
  invalid: { count: number; notes: Record<string, number> };
  sessions: Omit<SessionFacts, 'tools' | 'handshake'>[];
  /** 2026-07-28 calls that took several rounds (input_required, then retries). */
  multiRoundCalls: MultiRoundCall[];
  /** Per tool listed or called: the bytes of its definition and of its results (what it costs a model's context). */
  toolSizes: Record<string, ToolSize>;
  /** Faults the spy injected (--fault), by rule: the frames they made are kept out of the counts above. */
  faults: { count: number; rules: Record<string, number> };
}

interface Tally {
  count: number;
  protocolErrors: number;
  toolErrors: number;
  latencies: number[];
}

const newTally = (): Tally => ({ count: 0, protocolErrors: 0, toolErrors: 0, latencies: [] });

function tallyOf(table: Map<string, Tally>, name: string): Tally {
  let tally = table.get(name);
  if (!tally) table.set(name, (tally = newTally()));
  return tally;
}

const isAnswer = (kind: string) => kind === 'response' || kind === 'tool-error' || kind === 'protocol-error';

/** Gathers stats entry by entry; `result()` at the end. Memory grows with requests, not with bytes. */
export function createStatsCollector() {
  const kinds = new Map<string, number>();
  const methods = new Map<string, Tally>();
  const tools = new Map<string, Tally>();
  const answers = createOwedAnswers();
  const sessions = new Map<string, SessionFacts>();
  const invalidNotes = new Map<string, number>();
  const rounds = createRoundStats();
  const sizes = createToolSizes();
  const faultRules = new Map<string, number>();
  const count = (table: Map<string, number>, key: string) => table.set(key, (table.get(key) ?? 0) + 1);
  let entries = 0;
  let frames = 0;
  let invalidFrames = 0;

  function onAnswer(entry: FrameEntry) {
    const targets = [
      typeof entry.method === 'string' ? tallyOf(methods, entry.method) : undefined,
      typeof entry.tool === 'string' ? tallyOf(tools, entry.tool) : undefined,
    ];
    for (const tally of targets) {
      if (!tally) continue;
      if (entry.kind === 'protocol-error') tally.protocolErrors++;
      if (entry.kind === 'tool-error') tally.toolErrors++;
      if (typeof entry.latencyMs === 'number') tally.latencies.push(entry.latencyMs);
    }
  }

  return {
    add(entry: RecordEntry) {
      entries++;
      count(kinds, String(entry.kind));
      if (entry.kind === 'fault') count(faultRules, String(entry.rule));
      if (!isFrameEntry(entry)) {
        answers.add(entry, undefined);
        return;
      }
      frames++;
      // A frame a fault rule made, or an answer made at the intercept console, is not the server's: it answers its request, and counts nowhere else.
      if (entry.origin === 'spy' && (typeof entry.fault === 'string' || (typeof entry.intercept === 'string' && typeof entry.original !== 'string'))) {
        answers.add(entry, messageOf(entry));
        return;
      }
      rounds.add(entry);
      sizes.add(entry);
      const session = String(entry.session ?? '');
      let facts = sessions.get(session);
      if (!facts) sessions.set(session, (facts = newSessionFacts(session)));
      const message = messageOf(entry);
      answers.add(entry, message);
      if (mayTell(entry, facts)) learnFromFrame(facts, entry, message);
      else if (typeof entry.rev === 'string') facts.revision = entry.rev;
      if (entry.kind === 'request' || entry.kind === 'notification') {
        if (typeof entry.method === 'string') tallyOf(methods, entry.method).count++;
        if (typeof entry.tool === 'string') tallyOf(tools, entry.tool).count++;
      }
      if (isAnswer(entry.kind)) {
        onAnswer(entry);
      } else if (entry.kind === 'invalid') {
        invalidFrames++;
        for (const note of Array.isArray(entry.notes) ? entry.notes : ['unknown']) count(invalidNotes, String(note));
      }
    },
    result(): RecordingStats {
      const finish = (table: Map<string, Tally>) =>
        tableOf(
          [...table]
            .sort(([a], [b]) => a.localeCompare(b))
            .map(([name, { latencies, ...counts }]) => {
              const latency = summarizeLatency(latencies);
              return [name, latency ? { ...counts, latency } : counts] as const;
            }),
        );
      return {
        entries,
        frames,
        kinds: tableOf(kinds),
        methods: finish(methods),
        tools: finish(tools),
        unanswered: answers
          .unanswered()
          .map(({ session, seq, dir, id, method, tool }) => ({ session: session === '' ? undefined : session, seq, dir, id, method, tool })),
        invalid: { count: invalidFrames, notes: tableOf(invalidNotes) },
        sessions: [...sessions.values()].map(({ tools: _tools, handshake: _handshake, ...facts }) => facts),
        multiRoundCalls: rounds.result(),
        toolSizes: sizes.result(),
        faults: { count: kinds.get('fault') ?? 0, rules: tableOf(faultRules) },
      };
    },
  };
}
