import { createStatsCollector } from '../review/stats.js';
import { formatStatsFiles, type StatsFormat } from '../review/stats-format.js';
import { forEachFile } from './each-file.js';
import { recordingEntries } from './recording-input.js';

export interface StatsCommandOptions {
  format: StatsFormat;
  strict?: boolean;
  maxLine?: number;
}

/** `mcp-spy stats FILE...`: counts, latency per method and tool, errors, unanswered requests, sessions; per recording. */
export async function runStats(files: string[], options: StatsCommandOptions): Promise<number> {
  const { done, exitCode } = await forEachFile(files, async (file) => {
    const collector = createStatsCollector();
    for await (const { entry } of recordingEntries(file, { strict: options.strict, maxLine: options.maxLine })) collector.add(entry);
    return collector.result();
  });
  if (done.length > 0)
    process.stdout.write(
      formatStatsFiles(
        done.map(({ file, value }) => ({ file, stats: value })),
        options.format,
      ),
    );
  return exitCode;
}
