/** mcp-spy as a library: the record's types, the pipeline and the renderer. */
/** One line of the record: a union by `kind` of a frame and the event kinds, as `readRecording` yields it. */
export type {
  RecordEntry,
  FrameEntry,
  EventEntry,
  EntryOf,
  EventKind,
  SpawnEntry,
  ExitEntry,
  StderrEntry,
  GapEntry,
  UnansweredEntry,
  HttpEntry,
  NoteEntry,
  FaultEntry,
} from './record/schema.js';
export { RECORD_VERSION, eventKinds } from './record/schema.js';
export { isFrameEntry } from './record/frame-message.js';
export { entryTime } from './record/entry-fields.js';
export type { FrameKind, Direction } from './wire/classify/kinds.js';
export { frameKinds } from './wire/classify/kinds.js';
export { renderLine } from './render/render-line.js';
export { readRecording } from './record/open-recording.js';
export { parseFilter } from './review/filter-expression.js';
export { buildFilter } from './review/filters.js';
export { createStatsCollector } from './review/stats.js';
export { createChecker } from './check/engine.js';
export { rules as checkRules } from './check/rules.js';
export type { Finding, RuleDefinition } from './check/types.js';
export { replay, defaultTimeoutMs, type ReplayOptions } from './replay/replay.js';
export type { ReplayResult, SessionResult, ReplayItem, ItemStatus, ItemKind, StatusCounts } from './replay/result.js';
export type { DiffEntry } from './recording/compare.js';
export { ReplayError } from './recording/errors.js';
export { defaultIgnores } from './recording/ignore.js';
