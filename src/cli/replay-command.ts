import { printableJson, sanitize } from '../render/sanitize.js';
import { formatJunit } from '../replay/format-junit.js';
import { formatText } from '../replay/format-text.js';
import { replay } from '../replay/replay.js';
import type { ReplayResult } from '../replay/result.js';
import { createCutReporter, createSkipReporter } from './recording-input.js';
import { exitCodes } from './errors.js';
import type { replayFormatNames } from './replay-options.js';

/** Output formats of `replay`, one renderer each. */
export const replayFormats = {
  text: formatText,
  json: (result: ReplayResult) => `${printableJson(result, 2)}\n`,
  junit: formatJunit,
} as const satisfies Record<(typeof replayFormatNames)[number], (result: ReplayResult) => string>;

export type ReplayFormat = keyof typeof replayFormats;

export interface ReplayCommandOptions {
  target?: string;
  ignore: string[];
  ignoreFile: boolean;
  map: string[];
  speed: number;
  timeout: number;
  concurrency?: boolean;
  notifications?: boolean;
  session?: string;
  update?: boolean;
  format: ReplayFormat;
  maxLine?: number;
}

/** `mcp-spy replay wire.jsonl -- node server.js`: exit 0 when the server still answers as recorded, 1 when not. */
export async function runReplay(recording: string, server: string[] | undefined, options: ReplayCommandOptions): Promise<number> {
  let result: ReplayResult;
  const unread = createSkipReporter(recording);
  try {
    result = await replay({
      recording,
      ...(options.maxLine !== undefined ? { maxLine: options.maxLine } : {}),
      onUnread: unread.onSkip,
      onCut: createCutReporter(recording),
      ...(server && server.length > 0 ? { server } : {}),
      ...(options.target !== undefined ? { target: options.target } : {}),
      ignore: options.ignore,
      ignoreFile: options.ignoreFile,
      map: options.map,
      speed: options.speed,
      timeoutMs: options.timeout,
      concurrency: options.concurrency ?? false,
      notifications: options.notifications ?? false,
      ...(options.session !== undefined ? { session: options.session } : {}),
      update: options.update ?? false,
      onWaiting: (text) => process.stderr.write(`mcp-spy: ${sanitize(text)}\n`),
    });
  } finally {
    unread.finish('');
  }
  process.stdout.write(replayFormats[options.format](result));
  // After --update only what could not be written (missing, extra) still fails.
  if (options.update) return result.counts.missing + result.counts.extra === 0 ? exitCodes.ok : exitCodes.findings;
  return result.ok ? exitCodes.ok : exitCodes.findings;
}
