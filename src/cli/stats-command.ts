import { createStatsCollector } from '../review/stats.js';
import { formatStats, type StatsFormat } from '../review/stats-format.js';
import { exitCodes } from './errors.js';
import { recordingEntries } from './recording-input.js';

export interface StatsCommandOptions {
  format: StatsFormat;
  strict?: boolean;
  maxLine?: number;
}

/** `mcp-spy stats FILE`: counts, latency per method and tool, errors, unanswered requests, sessions. */
export async function runStats(file: string, options: StatsCommandOptions): Promise<number> {
  const collector = createStatsCollector();
  for await (const { entry } of recordingEntries(file, { strict: options.strict, maxLine: options.maxLine })) collector.add(entry);
  process.stdout.write(formatStats(collector.result(), options.format));
  return exitCodes.ok;
}
