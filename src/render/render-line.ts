import { lookup } from '../protocol/own-table.js';
import { notesOf } from '../record/entry-fields.js';
import { isFrameEntry } from '../record/frame-message.js';
import type { EntryOf, EventKind, FrameEntry, RecordEntry } from '../record/schema.js';
import { cutToWidth, displayWidth } from './display-width.js';
import { cuttable, fitParts, joinParts, type Part } from './fit-parts.js';
import { previewOf } from './preview.js';
import { sanitize } from './sanitize.js';
import { arrows, createPalette, kindStyles, labelWidth, type Palette } from './styles.js';

export interface RenderOptions {
  color?: boolean;
  /** Longest preview of a frame's content, in characters. */
  preview?: number;
  /**
   * A terminal's width, in columns: the line fits it (names and URIs cut first, numbers kept whole)
   * and the preview gets the columns the rest leaves (at least a few).
   */
  width?: number;
  /** The frame already parsed, when the caller has it: saves parsing it again. Same output. */
  message?: unknown;
}

export const defaultPreview = 200;
/** A preview narrower than this says nothing: a terminal that leaves less room gets "…" alone. */
const minPreview = 8;

const palettes = { plain: createPalette(false), color: createPalette(true) };

function timeOf(entry: RecordEntry): string {
  return typeof entry.t === 'string' && entry.t.length >= 23 ? entry.t.slice(11, 23) : '??:??:??.???';
}

function idText(id: unknown): string {
  return typeof id === 'string' ? `#${JSON.stringify(id)}` : `#${String(id)}`;
}

function unreadText(unread: unknown): string {
  return Array.isArray(unread) && unread.length > 0 ? `; ${unread.map(String).map(sanitize).join(', ')} not in the kept part` : '';
}

/** A frame --intercept held: edited there, made there (an error answer), or held and let go as it was. */
export function interceptMark(entry: FrameEntry): string {
  if (entry.origin !== 'spy') return '(intercepted)';
  return typeof entry.original === 'string' ? '(edited at the intercept)' : '(answered at the intercept)';
}

function frameDetails(entry: FrameEntry, p: Palette): Part[] {
  const parts: Part[] = [];
  if (typeof entry.method === 'string') parts.push(cuttable(sanitize(entry.method), p.bold));
  if ('id' in entry) parts.push(idText(entry.id));
  if (typeof entry.tool === 'string') parts.push(cuttable(`tool=${sanitize(entry.tool)}`));
  if (typeof entry.prompt === 'string') parts.push(cuttable(`prompt=${sanitize(entry.prompt)}`));
  if (typeof entry.uri === 'string') parts.push(cuttable(`uri=${sanitize(entry.uri)}`));
  if (entry.related && entry.kind === 'notification') parts.push(cuttable(`for ${idText(entry.related.id)} ${sanitize(String(entry.related.method))}`));
  // The rounds of a 2026-07-28 multi-round-trip call: a retry names the call's first request.
  const round = (entry.related as { round?: unknown } | undefined)?.round;
  if (typeof round === 'number') parts.push(entry.kind === 'request' ? `round ${round} of ${idText(entry.related!.id)}` : `round ${round}`);
  if (typeof entry.latencyMs === 'number') parts.push(p.dim(`${entry.latencyMs}ms`));
  if (entry.error && typeof entry.error === 'object') {
    const { code, message } = entry.error as { code: unknown; message: unknown };
    const name = typeof entry.errorName === 'string' ? ` ${entry.errorName}` : '';
    const text = String(message) === entry.errorName ? '' : `: ${sanitize(String(message))}`;
    parts.push(cuttable(`${String(code)}${name}${text}`, p.kind('protocol-error')));
  }
  if (entry.batch) parts.push(`batch ${entry.batch.index + 1}/${entry.batch.count}`);
  if (entry.truncated) parts.push(`(${entry.bytes} bytes, recorded in part${unreadText(entry.unread)})`);
  // The spy answered in the server's stead (a 502 when it could not reach it): not the server's words.
  if (typeof entry.intercept === 'string') parts.push(p.warn(interceptMark(entry)));
  else if (entry.origin === 'spy') parts.push(p.warn(typeof entry.fault === 'string' ? '(injected by mcp-spy)' : '(from mcp-spy)'));
  else if (typeof entry.fault === 'string') parts.push(p.warn('(faulted)'));
  if (typeof entry.rev === 'string' && entry.revChanged === true) parts.push(p.dim(`rev=${sanitize(entry.rev)}`));
  return parts;
}

const eventDetails: { [K in EventKind]: (entry: EntryOf<K>) => Part[] } = {
  spawn: (e) => [
    cuttable(Array.isArray(e.command) ? e.command.map((arg) => sanitize(String(arg))).join(' ') : ''),
    e.pid !== undefined ? `pid=${e.pid}` : '',
    e.session !== undefined ? `session=${sanitize(String(e.session))}` : '',
  ],
  exit: (e) => [
    e.signal ? `signal=${sanitize(String(e.signal))}` : `code=${String(e.code)}`,
    cuttable(typeof e.reason === 'string' ? `(${sanitize(e.reason)})` : ''),
  ],
  stderr: (e) => [cuttable(sanitize(typeof e.raw === 'string' ? e.raw : `<${e.bytes ?? '?'} bytes, not UTF-8>`))],
  gap: (e) => [cuttable(sanitize(String(e.reason ?? 'lost data'))), e.lost !== undefined ? `lost=${e.lost}` : ''],
  unanswered: (e) => [
    `${Array.isArray(e.requests) ? e.requests.length : 0} request(s) never answered:`,
    cuttable(
      (Array.isArray(e.requests) ? e.requests : [])
        .map((r) => `${idText(r.id)} ${sanitize(r.method)}${'tool' in r && r.tool ? ` tool=${sanitize(r.tool)}` : ''}`)
        .join(', '),
    ),
  ],
  http: (e) => [
    sanitize(String(e.httpMethod ?? '')),
    cuttable(sanitize(String(e.path ?? ''))),
    e.status !== undefined ? String(e.status) : '',
    cuttable(typeof e.summary === 'string' ? sanitize(e.summary) : ''),
  ],
  note: (e) => [cuttable(sanitize(String(e.text ?? '')))],
  // An injected fault names its rule: told apart from anything the server did.
  fault: (e) => [
    sanitize(String(e.action ?? '')),
    typeof e.method === 'string' ? cuttable(sanitize(e.method)) : '',
    'id' in e ? idText(e.id) : '',
    cuttable(sanitize(String(e.text ?? ''))),
    cuttable(`[rule: ${sanitize(String(e.rule ?? ''))}]`),
  ],
  // A frame held by --intercept, and what became of it: who let it go, how, after how long.
  intercept: (e) => [
    `${sanitize(String(e.action ?? ''))} #${String(e.hold ?? '?')}`,
    typeof e.method === 'string' ? cuttable(sanitize(e.method)) : '',
    typeof e.tool === 'string' ? cuttable(`tool=${sanitize(e.tool)}`) : '',
    'id' in e ? idText(e.id) : '',
    cuttable(sanitize(String(e.text ?? ''))),
  ],
};

/**
 * One entry of the record as one line for people: the live view, wire.log and `view` all print this.
 * Total on any input: an entry of the wrong shape still renders as something readable.
 */
export function renderLine(entry: RecordEntry, options: RenderOptions = {}): string {
  try {
    return renderEntry(entry, options);
  } catch {
    // A shape no table foresaw: still one readable line, never an exception.
    return `${timeOf(entry)} ${arrows.none} ${sanitize(JSON.stringify(entry) ?? String(entry))}`;
  }
}

function renderEntry(entry: RecordEntry, options: RenderOptions): string {
  const p = options.color ? palettes.color : palettes.plain;
  const kind = typeof entry.kind === 'string' ? entry.kind : 'unknown';
  const label = (lookup(kindStyles, kind)?.label ?? sanitize(kind)).padEnd(labelWidth);
  const arrow = entry.kind === 'stderr' ? '~~' : isFrameEntry(entry) ? arrows[entry.dir] : arrows.none;
  const head = `${p.dim(timeOf(entry))} ${arrow} ${p.kind(kind)(label)}`;
  const details = isFrameEntry(entry)
    ? frameDetails(entry, p)
    : ((lookup(eventDetails, kind) as ((e: RecordEntry) => Part[]) | undefined) ?? ((e: RecordEntry) => [cuttable(sanitize(JSON.stringify(e)))]))(entry);
  const noted = notesOf(entry);
  const notes = noted.length > 0 ? [p.warn(`!${noted.map(String).map(sanitize).join(',')}`)] : [];
  const parts = [head, ...details, ...notes];
  if (options.width === undefined) {
    const line = joinParts(parts);
    if (!isFrameEntry(entry)) return line;
    const preview = sanitize(previewOf(entry, options.preview ?? defaultPreview, options.message));
    return preview === '' ? line : `${line} ${preview}`;
  }
  return fitLine(entry, parts, options.width, options.message);
}

/**
 * The line in `width` columns (one spare, so the cursor never sits past the edge): what the line
 * says fitted first, the preview in the room left.
 */
function fitLine(entry: RecordEntry, parts: Part[], width: number, message: unknown): string {
  const columns = width - 1;
  const { line, whole } = fitParts(parts, columns);
  // A line cut short has no room for a preview.
  if (!isFrameEntry(entry) || !whole) return line;
  const room = columns - displayWidth(line) - 1;
  if (room < 1) return line;
  // The preview is asked for in characters; a wide character takes two columns: cut again by width.
  const preview = room < minPreview ? (previewOf(entry, 0, message) === '' ? '' : '…') : cutToWidth(sanitize(previewOf(entry, room, message)), room);
  return preview === '' ? line : `${line} ${preview}`;
}
