import { buildFilter, type FilterOptions } from '../review/filters.js';
import { createOutput } from '../review/output.js';
import { createViewWriter, type ViewFormat } from '../review/view.js';
import { exitCodes, SpyError } from './errors.js';
import { wantsColor } from './options.js';
import { abortOnSignals, recordingEntries } from './recording-input.js';

export interface ViewCommandOptions extends FilterOptions {
  format: ViewFormat;
  full?: boolean;
  follow?: boolean;
  strict?: boolean;
  maxLine?: number;
  color?: boolean;
}

/** `mcp-spy view FILE`: the recording rendered as the live view and wire.log render it, filtered. */
export async function runView(file: string, options: ViewCommandOptions): Promise<number> {
  const filter = buildFilter(options);
  if (!filter.ok) throw new SpyError(filter.message);
  const color = options.format === 'text' && wantsColor(options.color, process.env, process.stdout.isTTY === true);
  const output = createOutput(process.stdout);
  const writer = createViewWriter(output, { format: options.format, full: options.full, color, width: process.stdout.isTTY ? process.stdout.columns : undefined });
  const stop = options.follow ? abortOnSignals() : undefined;
  try {
    for await (const { entry } of recordingEntries(file, { strict: options.strict, maxLine: options.maxLine, follow: options.follow, signal: stop?.signal })) {
      if (output.closed) break;
      if (filter.test(entry)) await writer.entry(entry);
    }
  } finally {
    stop?.dispose();
    await writer.end();
  }
  return exitCodes.ok;
}
