import { entryTime } from '../record/entry-fields.js';
import { isFrameEntry } from '../record/frame-message.js';
import type { FrameEntry, RecordEntry } from '../record/schema.js';
import { createMermaidWriter } from '../render/mermaid.js';
import { renderLine } from '../render/render-line.js';
import { printableJson, sanitize } from '../render/sanitize.js';
import { isRoutine } from '../render/visibility.js';
import type { Output } from './output.js';

export const viewFormats = ['text', 'json', 'jsonl', 'mermaid'] as const;
export type ViewFormat = (typeof viewFormats)[number];

export interface ViewOptions {
  format: ViewFormat;
  /** Text only: each frame pretty-printed under its line. */
  full?: boolean;
  color?: boolean;
  /** Text only: a terminal's width, which each line fits (unless `full`). */
  width?: number;
  /** Text only: times in the machine's time zone instead of UTC. */
  local?: boolean;
}

const indent = '    ';

/** A frame's content for people: JSON pretty-printed, anything else as sanitised text. */
export function fullFrame(entry: FrameEntry): string {
  let text: string;
  if (entry.msg !== undefined) text = printableJson(entry.msg, 2);
  else if (typeof entry.raw === 'string') text = sanitize(entry.raw);
  else return typeof entry.rawBase64 === 'string' ? `${indent}<not UTF-8, base64> ${entry.rawBase64}\n` : '';
  return `${text
    .split('\n')
    .map((line) => indent + line)
    .join('\n')}\n`;
}

/**
 * The entry with its time moved to the machine's clock, for --local: the renderer prints the clock
 * part of `t` as it stands, and wire.log stays UTC.
 */
function inLocalTime(entry: RecordEntry): RecordEntry {
  const at = entryTime(entry);
  if (at === undefined) return entry;
  return { ...entry, t: new Date(at - new Date(at).getTimezoneOffset() * 60_000).toISOString() };
}

/**
 * Prints entries as they come. Text is exactly `renderLine(entry) + "\n"`, what wire.log holds;
 * json is one array; jsonl is the record itself, one entry a line; mermaid is a sequence diagram.
 */
export function createViewWriter(output: Output, options: ViewOptions) {
  let count = 0;
  const mermaid = createMermaidWriter();
  const writers: Record<ViewFormat, (entry: RecordEntry) => string> = {
    // Like wire.log, text leaves out routine entries unless it shows everything.
    text: (entry) =>
      !options.full && isRoutine(entry)
        ? ''
        : `${renderLine(options.local ? inLocalTime(entry) : entry, { color: options.color, width: options.full ? undefined : options.width })}\n${options.full && isFrameEntry(entry) ? fullFrame(entry) : ''}`,
    json: (entry) => `${count === 1 ? '[\n' : ',\n'}${printableJson(entry)}`,
    jsonl: (entry) => `${printableJson(entry)}\n`,
    mermaid: (entry) => `${count === 1 ? mermaid.header : ''}${mermaid.entry(entry)}`,
  };
  return {
    entry(entry: RecordEntry): Promise<void> {
      count++;
      return output.write(writers[options.format](entry));
    },
    async end(): Promise<void> {
      if (options.format === 'json') await output.write(count === 0 ? '[]\n' : '\n]\n');
      if (options.format === 'mermaid' && count === 0) await output.write(mermaid.header);
      await output.end();
    },
    get count() {
      return count;
    },
  };
}
