import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { baselineOf, baselineText } from '../drift/baseline.js';
import { failsOn, type FailOn } from '../drift/change.js';
import { diffSnapshots } from '../drift/diff.js';
import { formatDiff, type DiffFormat } from '../drift/format.js';
import { snapshotOf } from '../drift/snapshot.js';
import { parseRecordLine } from '../record/reader.js';
import { loadRecording, type Recording } from '../recording/load.js';
import { ignoresFor } from '../recording/ignore.js';
import { replay } from '../replay/replay.js';
import { sanitize } from '../render/sanitize.js';
import { describeSpawnFailure } from '../transports/spawn-server.js';
import { exitCodes, SpyError } from './errors.js';
import { binPath } from './invocation.js';
import { version } from './version.js';
import { refuseOverwrite, sameFile, writeOutput } from './write-output.js';
import { createCutReporter } from './recording-input.js';

export interface DiffCommandOptions {
  failOn: FailOn;
  format: DiffFormat;
  ignore: string[];
  ignoreFile: boolean;
  timeout: number;
  /** Where the report goes (default: standard output). */
  output?: string;
}

function load(path: string): Promise<Recording> {
  return loadRecording(path, { onCut: createCutReporter(path) });
}

/**
 * A server command that could not be started, as the spy recorded it (an exit with a reason, `... (ENOENT)`):
 * the same line and status (127, 126) as replay gives, not a diff's 1.
 */
function startFailure(live: string): SpyError | undefined {
  let text: string;
  try {
    text = readFileSync(live, 'utf8');
  } catch {
    return undefined;
  }
  for (const [at, line] of text.split('\n').entries()) {
    const item = parseRecordLine(line, at + 1);
    if (!item.ok || item.entry.kind !== 'exit' || item.entry.code !== null || typeof item.entry.reason !== 'string') continue;
    const code = /\((E[A-Z]+)\)$/.exec(item.entry.reason)?.[1] ?? '';
    return new SpyError(item.entry.reason.replace(/ \(E[A-Z]+\)$/, ''), describeSpawnFailure(code, '').exitCode);
  }
  return undefined;
}

/** Replays the recording against the live server through a spy of this mcp-spy, and reads back what it recorded. */
async function recordLive(before: string, server: string[], options: DiffCommandOptions): Promise<Recording> {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-spy-diff-'));
  const live = join(dir, 'live.jsonl');
  try {
    const spied = [process.execPath, binPath, '--record', live, '--no-log', '-q', '--', ...server];
    await replay({ recording: before, server: spied, ignore: options.ignore, ignoreFile: options.ignoreFile, timeoutMs: options.timeout }).catch(
      (error: unknown) => {
        throw startFailure(live) ?? error;
      },
    );
    return { ...(await load(live)), path: `${server.join(' ')} (live)` };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * `mcp-spy diff A B` (or `diff A -- server command`): what changed between two recordings of a
 * server, each change classed; exit 1 when a change of the `--fail-on` class (or worse) is found.
 */
export async function runDiff(before: string, after: string | undefined, server: string[] | undefined, options: DiffCommandOptions): Promise<number> {
  const live = server !== undefined && server.length > 0;
  if (live === (after !== undefined))
    throw new SpyError('diff needs two recordings (mcp-spy diff before.jsonl after.jsonl), or one and a server command after --');
  const ignores = ignoresFor(before, options.ignore, options.ignoreFile);
  const { output } = options;
  // Before any work: a live diff starts a server only to find it cannot write its report.
  refuseOverwrite(output, after === undefined ? [before] : [before, after]);
  const a = await load(before);
  const b = live ? await recordLive(before, server, options) : await load(after!);
  const report = diffSnapshots(snapshotOf(a), snapshotOf(b), { before, after: b.path }, ignores);
  writeOutput(output, formatDiff(report, options.format, options.failOn, version));
  return failsOn(options.failOn, report.changes) ? exitCodes.findings : exitCodes.ok;
}

/** `mcp-spy baseline wire.jsonl -o mcp-tools.lock.json`: pins the tools each server of the recording listed. */
export async function runBaseline(recording: string, options: { output?: string }): Promise<number> {
  if (options.output !== undefined && options.output !== '-' && sameFile(recording, options.output)) {
    throw new SpyError(`the baseline would overwrite its recording ${options.output}; choose another file with -o`);
  }
  const tools = baselineOf(await load(recording));
  const servers = Object.keys(tools);
  if (servers.length === 0) throw new SpyError(`${recording}: no tools/list answer in the recording; nothing to pin`);
  const text = baselineText(tools, `mcp-spy ${version}`);
  // A lock file to commit and review, holding no traffic: readable as any file of the repository.
  // Its recording was refused as the output above, in the baseline's own words.
  writeOutput(options.output, text, { mode: 0o644 });
  if (options.output !== undefined && options.output !== '-') {
    const count = servers.reduce((sum, server) => sum + Object.keys(tools[server]!).length, 0);
    process.stderr.write(`${sanitize(`mcp-spy: pinned ${count} tool(s) of ${servers.length} server(s) (${servers.join(', ')}) in ${options.output}`)}\n`);
  }
  return exitCodes.ok;
}
