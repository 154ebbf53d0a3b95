import { lookup } from '../protocol/own-table.js';
import { fieldOf, notesOf } from '../record/entry-fields.js';
import { isFrameEntry } from '../record/frame-message.js';
import type { RecordEntry } from '../record/schema.js';
import { interceptMark } from '../render/render-line.js';
import { arrows, kindStyles, labelWidth, type Palette } from '../render/styles.js';
import type { Row } from './rows.js';
import { clock, fit, wireText } from './text.js';

function idText(id: unknown): string {
  return typeof id === 'string' ? `#${wireText(JSON.stringify(id), 40)}` : `#${String(id)}`;
}

/** What a row says after its kind: method, tool, id, latency, error, notes (each cut short). */
function details(entry: RecordEntry): string[] {
  const parts: string[] = [];
  // What --intercept did, first: held, or let go (how, and by whom).
  if (entry.kind === 'intercept')
    parts.push(`${wireText(entry.action, 10)} #${String(entry.hold)}${typeof entry.by === 'string' ? ` by ${wireText(entry.by, 10)}` : ''}`);
  const method = fieldOf(entry, 'method');
  const tool = fieldOf(entry, 'tool');
  if (typeof method === 'string') parts.push(wireText(method, 60));
  if (typeof tool === 'string') parts.push(`tool=${wireText(tool, 40)}`);
  if (isFrameEntry(entry)) {
    if ('id' in entry) parts.push(idText(entry.id));
    if (entry.related && entry.kind === 'notification') parts.push(`for ${idText(entry.related.id)}`);
    if (typeof entry.latencyMs === 'number') parts.push(`${entry.latencyMs}ms`);
    if (entry.error && typeof entry.error === 'object')
      parts.push(`${String((entry.error as { code?: unknown }).code)} ${wireText((entry.error as { message?: unknown }).message, 60)}`);
  }
  if (entry.kind === 'stderr') parts.push(wireText(entry.raw, 120));
  if (entry.kind === 'exit') parts.push(entry.signal ? `signal=${wireText(entry.signal, 20)}` : `code=${String(entry.code)}`);
  if (entry.kind === 'spawn' && Array.isArray(entry.command)) parts.push(wireText(entry.command.join(' '), 80));
  if (entry.kind === 'gap') parts.push(wireText(entry.reason, 80));
  if (entry.kind === 'http')
    parts.push(
      [entry.httpMethod, entry.path, entry.status]
        .filter((part) => part !== undefined)
        .map((part) => wireText(part, 60))
        .join(' '),
    );
  if (entry.kind === 'note') parts.push(wireText(entry.text, 80));
  if (isFrameEntry(entry) && typeof entry.intercept === 'string') parts.push(interceptMark(entry));
  return parts;
}

export interface FrameLineOptions {
  width: number;
  palette: Palette;
  /** A column with the session's server, for the merged stream. */
  sessionLabel?: string;
  /** '>' under the cursor, '*' for the cursor's pair, ' ' otherwise. */
  mark: string;
}

/**
 * One row of the frame stream: time, direction, kind in its colour, method, tool, id, latency,
 * notes. The width is counted on the text without colour; every string from the wire is sanitised.
 */
export function frameLine(row: Row, options: FrameLineOptions): string {
  const { entry } = row;
  const p = options.palette;
  const kind = typeof entry.kind === 'string' ? entry.kind : 'unknown';
  const label = (lookup(kindStyles, kind)?.label ?? wireText(kind, labelWidth)).padEnd(labelWidth);
  const arrow = entry.kind === 'stderr' ? '~~' : isFrameEntry(entry) ? arrows[entry.dir] : arrows.none;
  const session = options.sessionLabel === undefined ? '' : `${fit(wireText(options.sessionLabel, 40), 12)} `;
  const head = `${options.mark} ${clock(entry.t)} ${session}${arrow} `;
  const noted = notesOf(entry);
  const notes = noted.length > 0 ? ` !${noted.map((note) => wireText(note, 40)).join(',')}` : '';
  const rest = ` ${details(entry).join(' ')}`;
  const room = Math.max(0, options.width - head.length - label.length);
  const tail = fit(`${rest}${notes}`, room).trimEnd();
  const cutNotes = notes !== '' && tail.endsWith(notes) ? tail.length - notes.length : tail.length;
  return `${head}${p.kind(kind)(label)}${tail.slice(0, cutNotes)}${p.warn(tail.slice(cutNotes))}`;
}
