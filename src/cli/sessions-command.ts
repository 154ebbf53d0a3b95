import { statSync, unlinkSync } from 'node:fs';
import { basename } from 'node:path';
import { sessionsDirectory } from '../record/sessions-dir.js';
import { cutToWidth, displayWidth } from '../render/display-width.js';
import { printableJson, sanitize } from '../render/sanitize.js';
import { alive } from '../record/sessions-dir.js';
import { listSessionFiles, serverKey, sessionFileNames, type SessionFile } from '../review/session-files.js';
import { choosePrune } from '../review/session-prune.js';
import { formatSize } from '../wire/framing/limits.js';
import { exitCodes, SpyError } from './errors.js';
import { commandToRun, shellWord } from './invocation.js';

export interface SessionsOptions {
  format: 'text' | 'json';
  all?: boolean;
  dir?: string;
}

const stateWords = { live: 'live', ended: 'ended', 'cut-short': 'cut short' } satisfies Record<SessionFile['state'], string>;

/** The newest session of each server, in the order of the file names (client, server). */
function latestPerServer(sessions: readonly SessionFile[]): (SessionFile & { runs: number })[] {
  const latest = new Map<string, SessionFile & { runs: number }>();
  for (const session of sessions) latest.set(session.key, { ...session, runs: (latest.get(session.key)?.runs ?? 0) + 1 });
  return [...latest.values()].sort((a, b) => a.key.localeCompare(b.key));
}

/** A plain table: columns padded to their widest cell, in terminal columns. */
function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => displayWidth(row[column]!))));
  return rows
    .map((row) => row.map((cell, column) => (column === row.length - 1 ? cell : cell + ' '.repeat(widths[column]! - displayWidth(cell)))).join('  '))
    .join('\n');
}

/** The widest a client or server name is shown: a config may name an entry with 10 KB (the JSON has it whole). */
const nameColumns = 40;
const nameCell = (name: string) => cutToWidth(sanitize(name), nameColumns);

/** A sessions directory that cannot be read (a file, no permission): one line, exit 2. */
function directoryError(dir: string, error: unknown): SpyError {
  return new SpyError(`cannot read the sessions directory ${sanitize(dir)}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
}

function fromDirectory<T>(dir: string, read: () => T): T {
  try {
    return read();
  } catch (error) {
    throw directoryError(dir, error);
  }
}

/** `mcp-spy sessions`: the sessions of wrapped servers, the newest of each server (or all). */
export async function runSessions(options: SessionsOptions): Promise<number> {
  const dir = options.dir ?? sessionsDirectory(process.env);
  const sessions = await listSessionFiles(dir).catch((error: unknown) => {
    throw directoryError(dir, error);
  });
  if (options.format === 'json') {
    const shown = options.all ? sessions : latestPerServer(sessions);
    process.stdout.write(`${printableJson({ dir, sessions: shown }, 2)}\n`);
    return exitCodes.ok;
  }
  if (sessions.length === 0) {
    process.stdout.write(`no sessions in ${sanitize(dir)} (mcp-spy wrap puts the spy in front of a client's servers; each run of one writes a session here)\n`);
    return exitCodes.ok;
  }
  const shown = options.all ? sessions.map((session) => ({ ...session, runs: 1 })) : latestPerServer(sessions);
  const rows = [['CLIENT', 'SERVER', options.all ? 'STARTED' : 'LAST STARTED', 'STATE', 'FRAMES', 'ERRORS', ...(options.all ? [] : ['RUNS']), 'FILE']];
  for (const session of shown) {
    rows.push([
      nameCell(session.client),
      nameCell(session.server),
      session.started.replace('T', ' ').replace(/\.\d+Z$/, 'Z'),
      session.unreadable ? 'unreadable' : stateWords[session.state],
      String(session.frames),
      String(session.errors),
      ...(options.all ? [] : [String(session.runs)]),
      sanitize(basename(session.file)),
    ]);
  }
  // The table names files without their directory: the hint is a command that works as printed.
  const newest = shown.reduce((a, b) => (b.started > a.started ? b : a));
  process.stdout.write(`${table(rows)}\n(in ${sanitize(dir)}; to see the newest: ${commandToRun()} view ${sanitize(shellWord(newest.file))})\n`);
  return exitCodes.ok;
}

export interface PruneOptions {
  keep?: number;
  maxSize?: number;
  dryRun?: boolean;
  dir?: string;
}

/** `mcp-spy sessions prune`: keeps the newest N per server, or what fits a size; never a session still being written. */
export async function runPrune(options: PruneOptions): Promise<number> {
  if (options.keep === undefined && options.maxSize === undefined) throw new SpyError('prune needs --keep N (per server) or --max-size SIZE (in all), or both');
  const dir = options.dir ?? sessionsDirectory(process.env);
  const candidates = fromDirectory(dir, () => sessionFileNames(dir)).flatMap(({ file, parts }) => {
    try {
      const { size } = statSync(file);
      return [{ file, key: serverKey(parts), started: parts.started, bytes: size, live: alive(parts.pid) }];
    } catch {
      return [];
    }
  });
  const remove = choosePrune(candidates, {
    ...(options.keep !== undefined ? { keep: options.keep } : {}),
    ...(options.maxSize !== undefined ? { maxBytes: options.maxSize } : {}),
  });
  let freed = 0;
  for (const file of remove) {
    const bytes = candidates.find((candidate) => candidate.file === file)!.bytes;
    if (!options.dryRun) {
      try {
        unlinkSync(file);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw new SpyError(`cannot remove ${file}: ${(error as NodeJS.ErrnoException).code}`);
      }
    }
    freed += bytes;
    process.stdout.write(`${options.dryRun ? 'would remove' : 'removed'} ${sanitize(basename(file))}\n`);
  }
  const kept = candidates.length - remove.length;
  process.stdout.write(
    `${options.dryRun ? 'would remove' : 'removed'} ${remove.length} session${remove.length === 1 ? '' : 's'} (${formatSize(freed)}), ${kept} kept, in ${sanitize(dir)}\n`,
  );
  return exitCodes.ok;
}
