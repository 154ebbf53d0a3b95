import { createChecker } from '../check/engine.js';
import { frameText, isFrameEntry } from '../record/frame-message.js';
import type { FrameEntry, RecordEntry } from '../record/schema.js';
import { renderLine } from '../render/render-line.js';
import { isRoutine } from '../render/visibility.js';
import { createStatsCollector } from '../review/stats.js';
import { defaultReportLimits } from './limits.js';
import type { ReportEvent, ReportFrame, ReportRecording } from './report-types.js';
import { createSessionTracker } from './sessions.js';
import { createSpanTracker } from './spans.js';

const copied = ['method', 'tool', 'prompt', 'uri', 'latencyMs', 'rev', 'bytes'] as const;

/** The annotations of a frame entry the page needs, plus its exact text while the budget lasts. */
function frameOf(entry: FrameEntry, lineNo: number, text: string | undefined): ReportFrame {
  const frame = { v: 1, seq: entry.seq, line: lineNo, session: String(entry.session ?? ''), dir: entry.dir, kind: entry.kind } as ReportFrame;
  if (typeof entry.t === 'string') frame.t = entry.t;
  for (const field of copied) if (entry[field] !== undefined) (frame as unknown as Record<string, unknown>)[field] = entry[field];
  if (entry.id !== undefined) frame.id = entry.id;
  if (entry.error && typeof entry.error === 'object') frame.error = { code: entry.error.code, message: entry.error.message };
  if (Array.isArray(entry.notes)) frame.notes = entry.notes.map(String);
  if (entry.related && typeof entry.related.seq === 'number') frame.related = { seq: entry.related.seq, id: entry.related.id };
  if (text !== undefined) frame.raw = text;
  if (typeof entry.fault === 'string') frame.fault = entry.fault;
  if (typeof entry.intercept === 'string') frame.intercept = entry.intercept;
  if (typeof entry.intercept === 'string' && typeof entry.original === 'string') frame.edited = true;
  if (entry.origin === 'spy') frame.origin = 'spy';
  return frame;
}

function eventOf(entry: RecordEntry, lineNo: number): ReportEvent {
  return {
    seq: entry.seq,
    line: lineNo,
    ...(typeof entry.t === 'string' ? { t: entry.t } : {}),
    session: String(entry.session ?? ''),
    kind: String(entry.kind),
    text: renderLine(entry, { color: false }),
    ...(isRoutine(entry) ? { routine: true as const } : {}),
  };
}

/** Reads a recording's entries into what its report page shows. Memory grows with what is shown. */
export async function collectRecording(
  file: string,
  entries: AsyncIterable<{ entry: RecordEntry; lineNo: number }>,
  limits = defaultReportLimits,
): Promise<ReportRecording> {
  const stats = createStatsCollector();
  const checker = createChecker();
  const sessions = createSessionTracker();
  const spans = createSpanTracker();
  const frames: ReportFrame[] = [];
  const events: ReportEvent[] = [];
  const left = { framesWithoutText: 0, bytesLeftOut: 0, framesLeftOut: 0 };
  const gaps = { count: 0, lost: 0 };
  let textBudget = limits.maxText;
  let start: string | undefined;
  let end: string | undefined;
  for await (const { entry, lineNo } of entries) {
    stats.add(entry);
    checker.add(entry, lineNo);
    sessions.add(entry);
    if (typeof entry.t === 'string') {
      start ??= entry.t;
      end = entry.t;
    }
    if (entry.kind === 'gap') {
      gaps.count++;
      if (typeof entry.lost === 'number') gaps.lost += entry.lost;
    }
    if (frames.length + events.length >= limits.maxFrames) {
      left.framesLeftOut++;
      continue;
    }
    if (!isFrameEntry(entry)) {
      events.push(eventOf(entry, lineNo));
      continue;
    }
    spans.add(entry);
    const exact = frameText(entry);
    let text = exact;
    if (exact !== undefined && exact.length > textBudget) {
      left.framesWithoutText++;
      left.bytesLeftOut += exact.length;
      text = undefined;
    } else if (exact !== undefined) textBudget -= exact.length;
    const frame = frameOf(entry, lineNo, text);
    if (text === undefined) frame.textLeftOut = exact === undefined ? 'not-text' : 'size-limit';
    frames.push(frame);
  }
  const result = stats.result();
  const checked = checker.finish();
  return {
    file,
    entries: result.entries,
    ...(start ? { start } : {}),
    ...(end ? { end } : {}),
    sessions: sessions.sessions(),
    frames,
    events,
    spans: spans.spans(),
    kinds: result.kinds,
    methods: result.methods,
    tools: result.tools,
    unanswered: result.unanswered.length,
    gaps,
    findings: {
      errors: checked.errors,
      warnings: checked.warnings,
      list: checked.findings.map(({ rule, level, message, seq, session }) => ({
        rule,
        level,
        message,
        ...(seq !== undefined ? { seq } : {}),
        ...(session !== undefined ? { session } : {}),
      })),
    },
    inventory: sessions.tools((name) => (Object.hasOwn(result.tools, name) ? result.tools[name]!.count : 0)),
    limits: { ...limits, ...left },
  };
}
