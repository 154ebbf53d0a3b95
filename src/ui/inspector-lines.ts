import { noteTexts } from '../protocol/notes.js';
import { lookup } from '../protocol/own-table.js';
import { fieldOf, notesOf } from '../record/entry-fields.js';
import { frameText, isFrameEntry, messageOf } from '../record/frame-message.js';
import type { RecordEntry } from '../record/schema.js';
import { printableJson } from '../render/sanitize.js';
import type { Row } from './rows.js';
import { serverLabel } from './sessions.js';
import { selectedRow, type ViewState } from './state.js';
import { bytesText, clock, wireText } from './text.js';

/** Strings longer than this are folded in the pretty JSON: their start and how much is left out. */
const foldedString = 300;
/** Arrays longer than this are folded too. */
const foldedArray = 50;
/** The exact bytes shown, at most: folded, and unfolded (a frame of megabytes stays a few thousand lines). */
const shownBytes = 8000;
const unfoldedBytes = 256 * 1024;

/** The value with long strings and arrays folded, so one huge field cannot bury the rest. */
export function folded(value: unknown): unknown {
  if (typeof value === 'string')
    return value.length > foldedString ? `${value.slice(0, foldedString)}… (${value.length - foldedString} more characters)` : value;
  if (Array.isArray(value)) {
    const shown = value.slice(0, foldedArray).map(folded);
    return value.length > foldedArray ? [...shown, `… ${value.length - foldedArray} more items`] : shown;
  }
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, folded(item)]));
}

/** Cuts each line to the width, continuing it on the next lines (the JSON and bytes can be wide). */
export function wrapLines(lines: readonly string[], width: number): string[] {
  const out: string[] = [];
  for (const line of lines) {
    if (line.length <= width) out.push(line);
    else for (let at = 0; at < line.length; at += width) out.push(line.slice(at, at + width));
  }
  return out;
}

function headerLines(row: Row, entry: RecordEntry, state: ViewState): string[] {
  const session = state.sessionIndex.get(row.session);
  const tool = fieldOf(entry, 'tool');
  const what = [entry.kind, fieldOf(entry, 'method'), tool ? `tool=${tool}` : undefined, 'id' in entry ? `#${JSON.stringify(entry.id)}` : undefined]
    .filter((part) => part !== undefined)
    .map((part) => wireText(part, 80));
  const latencyMs = fieldOf(entry, 'latencyMs');
  const latency = typeof latencyMs === 'number' ? ` ${latencyMs}ms` : '';
  return [
    `${what.join(' ')}  seq ${entry.seq} at ${clock(entry.t)}${latency}  ${fieldOf(entry, 'dir') ?? ''}  ${session ? wireText(serverLabel(session), 40) : ''}`,
  ];
}

function noteLines(entry: RecordEntry): string[] {
  const notes = notesOf(entry);
  if (notes.length === 0) return [];
  return ['notes:', ...notes.map((note) => `  ${wireText(note, 60)}: ${lookup<string>(noteTexts, note) ?? 'see docs/rules.md'}`)];
}

/** How far from a frame the inspector looks for the entries linked to it (the log can hold millions). */
const linkedReach = 20_000;

/** The rows of a session of a kind near a frame (from `from` to `to`), read again, that pass `test`. */
function nearby(state: ViewState, session: string, kind: string, from: number, to: number, test: (entry: RecordEntry) => boolean, most: number): Row[] {
  const found: Row[] = [];
  const { log } = state;
  for (let index = Math.max(0, from); index < Math.min(log.length, to) && found.length < most; index++) {
    if (log.kind(index) !== kind || log.sessionKey(index) !== session) continue;
    const row = log.place(index);
    const entry = state.load(row) ?? row.entry;
    if (test(entry)) found.push({ ...row, entry });
  }
  return found;
}

/** Progress and cancellation of a request, linked by the record's `related`: between it and its answer. */
function linkedLines(state: ViewState, request: Row | undefined): string[] {
  if (!request) return [];
  const end = request.pair ?? request.index + linkedReach;
  const linked = nearby(
    state,
    request.session,
    'notification',
    request.index + 1,
    Math.min(end, request.index + linkedReach),
    (entry) => fieldOf(entry, 'related')?.seq === request.entry.seq,
    20,
  );
  if (linked.length === 0) return [];
  return ['linked:', ...linked.map((row) => `  ${clock(row.entry.t)} ${wireText(fieldOf(row.entry, 'method'), 60)} (seq ${row.entry.seq})`)];
}

/** HTTP: the frame's headers, and the status and headers of the exchange that carried it (near it in the log). */
function httpLines(state: ViewState, row: Row, entry: RecordEntry): string[] {
  const lines: string[] = [];
  const header = (name: string, value: unknown) => `  ${wireText(name, 60)}: ${wireText(Array.isArray(value) ? value.join(', ') : value, 160)}`;
  const headers = fieldOf(entry, 'headers');
  if (headers) lines.push('HTTP headers:', ...Object.entries(headers).map(([name, value]) => header(name, value)));
  const exchangeNo = fieldOf(entry, 'exchange');
  if (typeof exchangeNo === 'number') {
    const exchange = nearby(state, row.session, 'http', row.index - 500, row.index + 500, (other) => fieldOf(other, 'exchange') === exchangeNo, 5);
    for (const { entry: full } of exchange) {
      if (full.kind !== 'http') continue;
      lines.push(
        `HTTP ${[full.httpMethod, full.path, full.status, full.summary]
          .filter((part) => part !== undefined)
          .map((part) => wireText(part, 80))
          .join(' ')}`,
      );
      for (const [side, headers] of Object.entries(full.headers ?? {})) {
        if (headers && typeof headers === 'object') lines.push(`  ${side}:`, ...Object.entries(headers).map(([name, value]) => `  ${header(name, value)}`));
      }
    }
  }
  return lines;
}

/** One side of the inspector: a frame's message as folded pretty JSON, its HTTP facts and its exact bytes. */
function frameLines(state: ViewState, row: Row): string[] {
  const entry = state.load(row) ?? row.entry;
  const lines = [...headerLines(row, entry, state), ...noteLines(entry), ...httpLines(state, row, entry)];
  const message = messageOf(entry);
  if (message !== undefined)
    lines.push(
      `message${state.unfolded ? '' : ' (long strings and arrays folded: z unfolds)'}:`,
      ...printableJson(state.unfolded ? message : folded(message), 2).split('\n'),
    );
  const text = isFrameEntry(entry) ? frameText(entry) : undefined;
  const bytes = fieldOf(entry, 'bytes');
  const size = typeof bytes === 'number' ? bytes : text === undefined ? 0 : Buffer.byteLength(text);
  const most = state.unfolded ? unfoldedBytes : shownBytes;
  const base64 = fieldOf(entry, 'rawBase64');
  if (text !== undefined)
    lines.push(`exact bytes (${bytesText(size)}${text.length > most ? `, first ${most} characters shown` : ''}):`, wireText(text.slice(0, most), most));
  else if (typeof base64 === 'string') lines.push(`exact bytes (${bytesText(size)}, not UTF-8, base64):`, base64.slice(0, most));
  else if (row.offset === undefined) lines.push('(the frame is not kept: it cannot be read again from its file)');
  return lines;
}

/**
 * The inspector of the row under the cursor: the pane asked for (its request, or its answer), with
 * the request's progress and cancellation, wrapped to the width.
 */
export function inspectorLines(state: ViewState): string[] {
  const row = selectedRow(state);
  if (!row) return ['nothing selected'];
  const isAnswer = row.pair !== undefined && row.pair < row.index;
  const request = isAnswer ? state.log.row(row.pair!, state.load) : row.entry.kind === 'request' ? row : undefined;
  const answer = isAnswer ? row : row.pair !== undefined ? state.log.row(row.pair, state.load) : undefined;
  const own = request === row ? 'request' : answer === row ? 'answer' : 'frame';
  const tabs = `[${state.pane === 'request' ? 'REQUEST' : 'request'}] [${state.pane === 'answer' ? 'ANSWER' : 'answer'}]  (Tab switches)`;
  const shown = own === 'frame' ? row : state.pane === 'request' ? request : answer;
  const body = shown ? frameLines(state, shown) : [state.pane === 'answer' ? 'no answer seen (yet)' : 'no request seen for this answer'];
  // A notification or an event has no pair: a request/answer switch over it would offer nothing.
  return wrapLines([...(own === 'frame' ? [] : [tabs]), ...body, ...linkedLines(state, request)], Math.max(20, state.width));
}
