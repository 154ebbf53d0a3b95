import { isObject, type JsonObject, type JsonRpcId } from '../protocol/jsonrpc.js';
import { isStatelessRevision } from '../protocol/revisions.js';
import { readRecording, type SkippedLine } from '../record/open-recording.js';
import { entryTime, fieldOf, notesOf } from '../record/entry-fields.js';
import { frameText, isFrameEntry, messageOf } from '../record/frame-message.js';
import { unfaultedEntries } from './faulted-frames.js';
import { RecordReadError } from '../record/reader.js';
import type { FrameEntry, RecordEntry } from '../record/schema.js';
import { classifyMessage } from '../wire/classify/classify.js';
import type { Direction, FrameKind } from '../wire/classify/kinds.js';
import { ReplayError } from './errors.js';

/** One JSON-RPC message of a recording, parsed, with where it stood. */
export interface RecordedFrame {
  /** Line of the record file: unique across sessions (seq restarts with each spy run). */
  lineNo: number;
  seq: number;
  /** Milliseconds since the epoch. */
  t: number;
  dir: Direction;
  kind: FrameKind;
  message: JsonObject;
  method?: string;
  id?: JsonRpcId;
  /** The text to send again: the recorded bytes, or for a batch member its own JSON. */
  raw: string;
  entry: FrameEntry;
}

/** One session of a recording: a stdio spy run, an HTTP session, or a run of stateless HTTP exchanges. */
export interface RecordedSession {
  id: string;
  transport: 'stdio' | 'http';
  revision?: string;
  /** The server command a stdio spy ran, when recorded. */
  command?: string[];
  /** A session whose only requests are `server/discover` (a 2026 client's probe before the real session). */
  probe: boolean;
  frames: RecordedFrame[];
}

export interface Recording {
  path: string;
  sessions: RecordedSession[];
  /** Frames that cannot be sent again or compared: invalid client frames, truncated, not UTF-8, or on a line too long to read (not the server's stdout noise). */
  skipped: number;
}

/** How a recording is read: the line limit, and who is told of each line left unread for its length. */
export interface LoadOptions {
  maxLine?: number;
  onUnread?: (skip: SkippedLine) => void;
  /** Told of each frame read cut at the depth limit (note `nested-too-deep`), by its line. */
  onCut?: (lineNo: number) => void;
}

interface SessionDraft {
  id: string;
  http: boolean;
  command?: string[];
  entries: { lineNo: number; entry: RecordEntry }[];
}

function messagesOf(entry: FrameEntry): { message: JsonObject; raw: string } | undefined {
  if (entry.truncated || entry.kind === 'invalid') return undefined;
  const value = messageOf(entry);
  if (!isObject(value)) return undefined;
  const raw = entry.batch ? JSON.stringify(value) : frameText(entry);
  return raw === undefined ? undefined : { message: value, raw };
}

function toFrame(lineNo: number, entry: RecordEntry): RecordedFrame | undefined {
  if (!isFrameEntry(entry)) return undefined;
  const parsed = messagesOf(entry);
  if (!parsed) return undefined;
  const classified = classifyMessage(parsed.message);
  if (classified.kind === 'invalid') return undefined;
  return {
    lineNo,
    seq: entry.seq,
    // An untimed frame (a plain capture) is at 0: replay and mock then send it without waiting.
    t: entryTime(entry) ?? 0,
    dir: entry.dir,
    kind: classified.kind,
    message: parsed.message,
    method: classified.method ?? entry.method,
    ...(classified.hasId ? { id: classified.id } : {}),
    raw: parsed.raw,
    entry,
  };
}

function finishSession(draft: SessionDraft, counter: { skipped: number }): RecordedSession | undefined {
  const frames: RecordedFrame[] = [];
  for (const { lineNo, entry } of unfaultedEntries(draft.entries)) {
    const frame = toFrame(lineNo, entry);
    if (frame) frames.push(frame);
    // The server's noise on stdout is neither sent nor compared: not a frame the replay skipped.
    else if (isFrameEntry(entry) && (entry.dir === 'c2s' || entry.kind !== 'invalid')) counter.skipped++;
  }
  if (frames.length === 0) return undefined;
  const revision = frames.find((frame) => typeof frame.entry.rev === 'string')?.entry.rev;
  const requests = frames.filter((frame) => frame.dir === 'c2s' && frame.kind === 'request');
  return {
    id: draft.id,
    transport: draft.http ? 'http' : 'stdio',
    ...(revision ? { revision } : {}),
    ...(draft.command ? { command: draft.command } : {}),
    probe: requests.length > 0 && requests.every((frame) => frame.method === 'server/discover'),
    frames,
  };
}

const clientMethods = (session: RecordedSession) =>
  session.frames.filter((frame) => frame.dir === 'c2s' && frame.kind === 'request').map((frame) => frame.method);

/**
 * HTTP records split what is one run for the server: stateless exchanges (2026-07-28) are recorded
 * one session each, and an `initialize` exchange may be recorded apart from the Mcp-Session-Id it
 * created. Both are joined again here; separate stdio runs never are.
 */
function joinsPrevious(last: RecordedSession | undefined, session: RecordedSession): boolean {
  if (last?.transport !== 'http' || session.transport !== 'http') return false;
  if (isStatelessRevision(session.revision)) return isStatelessRevision(last.revision) && !session.probe;
  const before = clientMethods(last);
  return before.length === 1 && before[0] === 'initialize' && !clientMethods(session).includes('initialize');
}

function mergeHttpParts(sessions: RecordedSession[]): RecordedSession[] {
  const merged: RecordedSession[] = [];
  for (const session of sessions) {
    const last = merged.at(-1);
    if (last && joinsPrevious(last, session)) {
      last.frames.push(...session.frames);
      last.probe = false;
      last.revision ??= session.revision;
    } else merged.push({ ...session, frames: [...session.frames] });
  }
  return merged;
}

/**
 * Whether an entry shows its session went over HTTP. The HTTP spy writes `http` events only for
 * exchanges worth one (a session assigned, a stream, a status that is not a plain 200): a stateless
 * 2026 exchange has none, but its request frame carries the MCP headers it was posted with.
 */
function isHttpEntry(entry: RecordEntry): boolean {
  return entry.kind === 'http' || fieldOf(entry, 'transport') === 'http' || (isFrameEntry(entry) && entry.dir === 'c2s' && isObject(entry.headers));
}

/**
 * Reads a whole recording into sessions of frames. A missing file or a corrupt line is a
 * ReplayError; a line longer than `maxLine` is left unread and counted as a skipped frame.
 */
export async function loadRecording(path: string, options: LoadOptions = {}): Promise<Recording> {
  const drafts = new Map<string, SessionDraft>();
  let unread = 0;
  const onSkip = (skip: SkippedLine) => {
    // An event of a kind this build does not know holds no frame: said, and left out.
    if (skip.unknownKind) return void options.onUnread?.(skip);
    if (!skip.tooLong) throw new ReplayError(`${path}:${skip.lineNo}: corrupt record line (${skip.reason})`);
    unread++;
    options.onUnread?.(skip);
  };
  try {
    for await (const { lineNo, entry } of readRecording(path, { onSkip, ...(options.maxLine !== undefined ? { maxLine: options.maxLine } : {}) })) {
      const id = typeof entry.session === 'string' ? entry.session : '(no session)';
      let draft = drafts.get(id);
      if (!draft) drafts.set(id, (draft = { id, http: false, entries: [] }));
      if (isHttpEntry(entry)) draft.http = true;
      if (entry.kind === 'spawn' && Array.isArray(entry.command)) draft.command = entry.command;
      if (notesOf(entry).includes('nested-too-deep')) options.onCut?.(lineNo);
      draft.entries.push({ lineNo, entry });
    }
  } catch (error) {
    if (error instanceof RecordReadError) throw new ReplayError(error.message);
    throw error;
  }
  const counter = { skipped: unread };
  const sessions = [...drafts.values()].map((draft) => finishSession(draft, counter)).filter((session) => session !== undefined);
  if (sessions.length === 0) throw new ReplayError(`${path}: the recording holds no JSON-RPC frames to replay`);
  return { path, sessions: mergeHttpParts(sessions), skipped: counter.skipped };
}

/** Keeps the sessions the user named (by id or its start), or all of them. */
export function selectSessions(recording: Recording, wanted: string | undefined): RecordedSession[] {
  if (!wanted) return recording.sessions;
  const chosen = recording.sessions.filter((session) => session.id === wanted || session.id.startsWith(wanted));
  if (chosen.length === 0) {
    const known = recording.sessions.map((session) => session.id).join(', ');
    throw new ReplayError(`no session ${wanted} in ${recording.path} (sessions: ${known})`);
  }
  return chosen;
}
