import { isFrameEntry } from '../record/frame-message.js';
import type { FrameEntry, RecordEntry } from '../record/schema.js';
import { renderLine } from './render-line.js';
import { truncate } from './sanitize.js';

// A recording as a Mermaid sequence diagram, for Markdown (GitHub renders it): one message per
// frame in recorded order, the events that matter as notes.

/** The arrow of each frame kind: solid for requests, dotted for answers, a cross for errors, async for notifications. */
const arrows: Record<string, string> = {
  request: '->>',
  response: '-->>',
  notification: '--)',
  'tool-error': '--x',
  'protocol-error': '--x',
  invalid: '-x',
};

const shownEvents = new Set(['stderr', 'gap', 'spawn', 'exit', 'unanswered']);

/**
 * Text safe in a Mermaid message or note: anything but plain letters, digits and a few marks
 * becomes an entity code (`#60;`), so text from the wire cannot end the line, start markup or a
 * comment, or be read as Mermaid syntax. `#` is one of them: it starts a comment in a message, which
 * cuts `initialize #0 908.4 ms` to `initialize`, and it starts the entity codes themselves.
 */
export function mermaidText(text: string, max = 80): string {
  return [...truncate(text, max)].map((char) => (/[A-Za-z0-9 _./@()[\]=,+*?!$:'-]/.test(char) ? char : `#${char.codePointAt(0)};`)).join('');
}

function frameLabel(entry: FrameEntry): string {
  const parts: string[] = [
    typeof entry.method === 'string'
      ? entry.method
      : entry.kind === 'invalid'
        ? `invalid${Array.isArray(entry.notes) ? ` (${entry.notes.join(', ')})` : ''}`
        : String(entry.kind),
  ];
  const subject = entry.tool ?? entry.prompt ?? entry.uri;
  if (typeof subject === 'string') parts.push(subject);
  if (typeof entry.id === 'string' || typeof entry.id === 'number') parts.push(`#${entry.id}`);
  if (typeof entry.latencyMs === 'number') parts.push(`${entry.latencyMs} ms`);
  if (entry.kind === 'tool-error') parts.push('isError');
  if (entry.kind === 'protocol-error' && entry.error) parts.push(`error ${String(entry.error.code)}`);
  return parts.join(' ');
}

/** An event's text as the log shows it, without its time and arrow. */
const eventText = (entry: RecordEntry) =>
  renderLine(entry, { color: false })
    .replace(/^\S+ \S+ /, '')
    .replace(/\s+/g, ' ');

/** Writes a diagram entry by entry: `header` once, a line (or nothing) per entry. */
export function createMermaidWriter() {
  let session: string | undefined;
  return {
    header: 'sequenceDiagram\n    participant C as client\n    participant S as server\n',
    entry(entry: RecordEntry): string {
      let out = '';
      if (typeof entry.session === 'string' && entry.session !== session) {
        if (session !== undefined || entry.kind !== 'spawn') out += `    Note over C,S: session ${mermaidText(entry.session)}\n`;
        session = entry.session;
      }
      if (isFrameEntry(entry)) {
        const [from, to] = entry.dir === 'c2s' ? ['C', 'S'] : ['S', 'C'];
        return `${out}    ${from}${arrows[entry.kind] ?? '->>'}${to}: ${mermaidText(frameLabel(entry))}\n`;
      }
      if (!shownEvents.has(String(entry.kind))) return out;
      const where = entry.kind === 'stderr' ? 'right of S' : 'over C,S';
      return `${out}    Note ${where}: ${mermaidText(eventText(entry))}\n`;
    },
  };
}
