import type { RecordEntry } from '../record/schema.js';
import { sanitize } from '../render/sanitize.js';
import { buildFilter, type EntryTest, type FilterOptions } from '../review/filters.js';
import { forEachFile } from './each-file.js';
import { createOutput } from '../review/output.js';
import { createViewWriter, type ViewFormat } from '../review/view.js';
import { SpyError } from './errors.js';
import { wantsColor } from './options.js';
import { abortOnSignals, recordingEntries } from './recording-input.js';

export interface ViewCommandOptions extends FilterOptions {
  format: ViewFormat;
  full?: boolean;
  follow?: boolean;
  /** Only the last N entries selected (as `tail -n`), then, with follow, every new one. */
  lines?: number;
  strict?: boolean;
  maxLine?: number;
  color?: boolean;
}

/** `-n N`: a count of entries, 0 or more. */

/** Keeps the last `limit` entries given; with no limit, nothing is held back. */
function lastEntries(limit: number | undefined) {
  const held: RecordEntry[] = [];
  return {
    holds: () => limit !== undefined,
    add(entry: RecordEntry) {
      held.push(entry);
      if (held.length > limit!) held.shift();
    },
    take: () => held.splice(0),
  };
}

/** Sessions asked for with --session that the recording does not have: said with those it has. */
function unknownSessions(asked: string[] | undefined, seen: Set<string>, file: string): string | undefined {
  const missing = (asked ?? []).filter((session) => !seen.has(session));
  if (missing.length === 0) return undefined;
  const some = [...seen].slice(0, 10);
  const has = seen.size === 0 ? 'it has none' : `its sessions: ${some.join(', ')}${seen.size > some.length ? `, and ${seen.size - some.length} more` : ''}`;
  return `no session ${missing.join(', ')} in ${file}; ${has}`;
}

/** `mcp-spy view FILE...`: the recordings rendered as the live view and wire.log render them, filtered, one after the other. */
export async function runView(files: string[], options: ViewCommandOptions): Promise<number> {
  // A JSON array is closed at the end, and a followed record has none: jsonl is its streaming form.
  if (options.follow && options.format === 'json') throw new SpyError('--follow cannot end a JSON array: use --format jsonl to follow as JSON');
  if (options.follow && files.length > 1) throw new SpyError(`--follow follows one recording, not ${files.length}: give one file`);
  const filter = buildFilter(options);
  if (!filter.ok) throw new SpyError(filter.message);
  const color = options.format === 'text' && wantsColor(options.color, process.env, process.stdout.isTTY === true);
  const output = createOutput(process.stdout);
  const writer = createViewWriter(output, {
    format: options.format,
    full: options.full,
    color,
    local: options.local,
    width: process.stdout.isTTY ? process.stdout.columns : undefined,
  });
  const sessions = new Set<string>();
  const named = files.map((file) => sanitize(file)).join(', ');
  let following = false;
  let result: Awaited<ReturnType<typeof forEachFile>>;
  try {
    result = await forEachFile(files, async (file) => {
      // Text shows where each recording starts, as tail does with several files.
      if (files.length > 1 && options.format === 'text' && !output.closed) await output.write(`==> ${sanitize(file)} <==\n`);
      following = await viewOne(file, options, { writer, output, filter, sessions });
    });
  } finally {
    await writer.end();
  }
  const unknown = following ? undefined : unknownSessions(options.session, sessions, named);
  if (unknown && writer.count === 0) throw new SpyError(unknown);
  if (unknown) process.stderr.write(`mcp-spy: ${sanitize(unknown)}\n`);
  return result.exitCode;
}

interface ViewTarget {
  writer: ReturnType<typeof createViewWriter>;
  output: ReturnType<typeof createOutput>;
  filter: { test: EntryTest };
  sessions: Set<string>;
}

/** Writes one recording's selected entries; resolves with whether it was being followed when it stopped. */
async function viewOne(file: string, options: ViewCommandOptions, { writer, output, filter, sessions }: ViewTarget): Promise<boolean> {
  const tail = lastEntries(options.lines);
  const flush = async () => {
    for (const entry of tail.take()) await writer.entry(entry);
  };
  const caughtUp = async () => {
    await flush();
    const unknown = unknownSessions(options.session, sessions, file);
    if (unknown) process.stderr.write(`mcp-spy: ${sanitize(unknown)}; still following\n`);
  };
  const stop = options.follow ? abortOnSignals() : undefined;
  let following = false;
  try {
    const entries = recordingEntries(file, {
      strict: options.strict,
      maxLine: options.maxLine,
      follow: options.follow,
      signal: stop?.signal,
      onWaiting: () => process.stderr.write(`mcp-spy: ${sanitize(file)} does not exist yet; waiting for it (Ctrl-C to stop)\n`),
      onCaughtUp: async () => {
        following = true;
        await caughtUp();
      },
    });
    for await (const { entry } of entries) {
      if (output.closed) break;
      if (typeof entry.session === 'string') sessions.add(entry.session);
      if (!filter.test(entry)) continue;
      if (tail.holds() && !following) tail.add(entry);
      else await writer.entry(entry);
    }
    await flush();
  } finally {
    stop?.dispose();
  }
  return following;
}
