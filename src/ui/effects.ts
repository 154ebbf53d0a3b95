import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { frameText } from '../record/frame-message.js';
import { printableJson } from '../render/sanitize.js';
import type { Row } from './rows.js';
import { selectedRow, type ViewState } from './state.js';

/** Terminals take OSC 52 payloads up to about this size; past it the frame goes to a file. */
const osc52Limit = 64 * 1024;
/** Terminals that do not take OSC 52 at all. */
const noClipboard = new Set(['linux', 'dumb']);

export interface EffectOptions {
  /** This mcp-spy's version, for the HAR's creator. */
  version?: string;
  /** Where OSC 52 is written (the terminal). */
  write: (text: string) => void;
  env: NodeJS.ProcessEnv;
  /** Where exported and copied files go. */
  dir: string;
  /** A line of a row as it is in its file, for export. */
  line: (row: Row) => string | undefined;
  now?: () => Date;
}

const stamp = (date: Date) => date.toISOString().replace(/[-:]/g, '').replace('.', '');

/** Writes a new file (never over one), readable by its owner only; falls back to the temporary directory. */
function writeNew(dir: string, name: string, text: string): string {
  for (const place of [dir, tmpdir()]) {
    try {
      const path = join(place, name);
      writeFileSync(path, text, { flag: 'wx', mode: 0o600 });
      return path;
    } catch {
      // Not writable there (or taken): the next place.
    }
  }
  throw new Error(`cannot write ${name}`);
}

/** `y`: the frame under the cursor as it crossed the wire, to the clipboard by OSC 52, or to a file. */
export function copyFrame(state: ViewState, options: EffectOptions): string {
  const row = selectedRow(state);
  if (!row) return 'nothing to copy';
  const entry = state.load(row) ?? row.entry;
  const text = frameText(entry) ?? printableJson(entry);
  const bytes = Buffer.byteLength(text);
  if (bytes <= osc52Limit && !noClipboard.has(options.env.TERM ?? '')) {
    options.write(`\u001b]52;c;${Buffer.from(text).toString('base64')}\u0007`);
    return `copied frame seq ${row.entry.seq} (${bytes} bytes) to the clipboard (OSC 52)`;
  }
  try {
    return `frame seq ${row.entry.seq} (${bytes} bytes) written to ${writeNew(options.dir, `mcp-spy-frame-${stamp(options.now?.() ?? new Date())}.json`, `${text}\n`)}`;
  } catch (error) {
    return (error as Error).message;
  }
}

/** An export's file name, stamped with when it was made. */
function exportName(options: EffectOptions, extension: string): string {
  return `mcp-spy-export-${stamp(options.now?.() ?? new Date())}.${extension}`;
}

/** The entries the stream shows, whole (read again from their files), numbered as the lines of a record. */
async function* shownEntries(state: ViewState) {
  let lineNo = 0;
  for (const index of state.visible) {
    const row = state.log.place(index);
    yield { entry: state.load(row) ?? row.entry, lineNo: ++lineNo };
  }
}

/** `e`: the entries the stream shows, as JSON Lines (a record that view, check and report read). */
export function exportShown(state: ViewState, options: EffectOptions): string {
  const lines = Array.from(state.visible, (index) => {
    const row = state.log.place(index);
    return options.line(row) ?? printableJson(row.entry);
  });
  try {
    const path = writeNew(options.dir, exportName(options, 'jsonl'), lines.length === 0 ? '' : `${lines.join('\n')}\n`);
    return `exported ${lines.length} entries to ${path}`;
  } catch (error) {
    return (error as Error).message;
  }
}

/** `H`: the entries the stream shows as HAR 1.2, as `export har` writes a record. */
export async function exportHarShown(state: ViewState, options: EffectOptions): Promise<string> {
  try {
    // Loaded when asked for: the HAR and report writers bring the SDK's schemas and the validator,
    // which the console otherwise never needs (some 10 MiB, and their time to load at every start).
    const { recordToHar } = await import('../export/har-export.js');
    const har = await recordToHar(shownEntries(state), options.version ?? '');
    const path = writeNew(options.dir, exportName(options, 'har'), `${JSON.stringify(har, null, 2)}\n`);
    return `exported ${state.visible.length} entries as HAR to ${path}`;
  } catch (error) {
    return (error as Error).message;
  }
}

/** `R`: the entries the stream shows as a report page (HTML), as `mcp-spy report` draws a record. */
export async function exportReportShown(state: ViewState, options: EffectOptions): Promise<string> {
  try {
    const [{ reportHtml }, { defaultReportLimits }, { buildReport }] = await Promise.all([
      import('../report/html.js'),
      import('../report/limits.js'),
      import('../report/report.js'),
    ]);
    const name = exportName(options, 'html');
    const data = await buildReport([{ path: name, entries: shownEntries(state) }], { spy: options.version ?? '', limits: defaultReportLimits, ignores: [] });
    const path = writeNew(options.dir, name, reportHtml(data));
    return `exported ${state.visible.length} entries as a report to ${path}`;
  } catch (error) {
    return (error as Error).message;
  }
}
