import { type Command, InvalidArgumentError, Option } from 'commander';
import { defaultReportLimits } from '../report/limits.js';
import { sizeParser } from './options.js';
import { collect } from './replay-options.js';

export const reportHelp = `
Examples:
  mcp-spy report wire.jsonl                            writes wire.html beside it and prints its path
  mcp-spy report wire.jsonl -o session.html --open
  mcp-spy report before.jsonl after.jsonl -o diff.html two recordings side by side
  mcp-spy view wire.jsonl --format mermaid             a sequence diagram as Mermaid text, for Markdown

The report is one HTML file that works offline: a summary, a sequence diagram, a waterfall of
requests, latency per method and tool, check findings, the frames with the filter language of
view --filter, and the tools. With two recordings, their tools and the answers to matching requests
(matched as replay matches them) are compared.`;

/** `--max-frames N`: a count of entries, at least 1. */
function parseFrameCount(value: string): number {
  if (!/^\d+$/.test(value.trim()) || Number(value) < 1) throw new InvalidArgumentError('expected a number of entries, 1 or more');
  return Number(value);
}

/** The options of `report`, beside the line limit every reading command takes. */
export function withReportOptions(command: Command): Command {
  return command
    .option('-o, --output <file>', 'where to write the report (default: beside the recording, .html; - for standard output)')
    .option('--open', 'open the report in the browser once written')
    .addOption(
      new Option('--max-text <size>', 'frame text kept in the report; past it frames keep their annotations only')
        .argParser(sizeParser({ min: 1024, max: 1024 ** 3 }))
        .default(defaultReportLimits.maxText, '64MiB'),
    )
    .addOption(
      new Option('--max-frames <count>', 'entries drawn and listed; past it they are counted only')
        .argParser(parseFrameCount)
        .default(defaultReportLimits.maxFrames),
    )
    .option('--ignore <path>', 'with two recordings: leave this JSONPath out of comparing answers (repeatable)', collect, [])
    .option('--no-ignore-file', 'with two recordings: do not read <first record>.ignore')
    .option('--strict', 'a line that cannot be read is an error instead of being skipped');
}
