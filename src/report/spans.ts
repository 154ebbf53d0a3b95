import type { FrameEntry } from '../record/schema.js';
import type { ReportSpan } from './report-types.js';

const outcomes = { response: 'response', 'tool-error': 'tool-error', 'protocol-error': 'protocol-error' } as const;

const keyOf = (session: unknown, seq: number) => `${String(session ?? '')}|${seq}`;

/** Follows requests from send to answer, with the progress that points at them: the waterfall's bars. */
export function createSpanTracker() {
  const spans = new Map<string, ReportSpan>();
  return {
    add(entry: FrameEntry) {
      const session = typeof entry.session === 'string' ? entry.session : '';
      if (entry.kind === 'request') {
        spans.set(keyOf(session, entry.seq), {
          seq: entry.seq,
          session,
          dir: entry.dir,
          ...(typeof entry.method === 'string' ? { method: entry.method } : {}),
          ...(typeof entry.tool === 'string' ? { tool: entry.tool } : {}),
          ...(entry.id !== undefined ? { id: entry.id } : {}),
          ...(typeof entry.t === 'string' ? { start: entry.t } : {}),
          outcome: 'open',
          progress: [],
        });
        return;
      }
      const related = entry.related;
      const span = related && typeof related.seq === 'number' ? spans.get(keyOf(session, related.seq)) : undefined;
      if (!span) return;
      const outcome = Object.hasOwn(outcomes, entry.kind) ? outcomes[entry.kind as keyof typeof outcomes] : undefined;
      if (outcome && span.outcome === 'open') {
        span.outcome = outcome;
        span.answerSeq = entry.seq;
        if (typeof entry.t === 'string') span.end = entry.t;
      } else if (entry.method === 'notifications/progress') {
        span.progress.push({ seq: entry.seq, ...(typeof entry.t === 'string' ? { t: entry.t } : {}) });
      }
    },
    spans: (): ReportSpan[] => [...spans.values()],
  };
}
