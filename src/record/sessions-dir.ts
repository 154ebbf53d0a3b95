import { chmodSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { makeDirectory, userStateDirectory } from './paths.js';

/**
 * The sessions directory: one per user, where every spy started from a wrapped client config writes
 * a record per server and run, and where the console looks. `MCP_SPY_DIR` overrides it.
 */
export function sessionsDirectory(env: NodeJS.ProcessEnv): string {
  return env.MCP_SPY_DIR ? resolve(env.MCP_SPY_DIR) : join(userStateDirectory(env), 'sessions');
}

/** Who a session file belongs to: the client whose config started it, the server's entry name, and when. */
export interface SessionFileName {
  client: string;
  server: string;
  /** When the spy started, to the millisecond. */
  started: Date;
  /** The spy's process id, which keeps two runs started in one millisecond apart. */
  pid: number;
}

/** Names keep letters, digits, `.`, `_` and `-`; anything else (a slash, a space, an escape) becomes `_`. */
function fileSafe(name: string): string {
  const safe = name
    .replace(/[^A-Za-z0-9._-]/g, '_')
    .replace(/^[.-]/, '_')
    .slice(0, 64);
  return safe === '' ? '_' : safe;
}

function stamp(date: Date): string {
  return date.toISOString().replace(/[-:]/g, '').replace('.', '');
}

/**
 * `client--server--20261201T170000123Z-4242.jsonl`: `ls` sorts the files by client, then server, then
 * time. Names are made file-safe, so `--` never appears inside one part.
 */
export function sessionFileName(parts: SessionFileName): string {
  const part = (name: string) => fileSafe(name).replace(/-{2,}/g, '-');
  return `${part(parts.client)}--${part(parts.server)}--${stamp(parts.started)}-${parts.pid}.jsonl`;
}

const namePattern = /^(.+?)--(.+?)--(\d{8})T(\d{2})(\d{2})(\d{2})(\d{3})Z-(\d+)\.jsonl$/;

/** The parts of a session file's name, or undefined for a file the spies did not name. */
export function parseSessionFileName(path: string): SessionFileName | undefined {
  const match = namePattern.exec(basename(path));
  if (!match) return undefined;
  const [, client, server, day, hh, mm, ss, ms, pid] = match as unknown as string[];
  const started = new Date(`${day!.slice(0, 4)}-${day!.slice(4, 6)}-${day!.slice(6, 8)}T${hh}:${mm}:${ss}.${ms}Z`);
  if (Number.isNaN(started.getTime())) return undefined;
  return { client: client!, server: server!, started, pid: Number(pid) };
}

/**
 * The record of one run of a wrapped server: the sessions directory (made 0700, or tightened to it
 * when it is ours) and the run's file name in it. When the directory cannot be made, why: the
 * server then runs unrecorded, as the first law wants (docs/architecture.md).
 */
export function sessionRecordPath(env: NodeJS.ProcessEnv, parts: SessionFileName): { path: string } | { unavailable: string } {
  const dir = openSessionsDirectory(env);
  return 'unavailable' in dir ? dir : { path: join(dir.path, sessionFileName(parts)) };
}

/** The sessions directory, made 0700 (or tightened to it when it is ours); or why it cannot be made. */
function openSessionsDirectory(env: NodeJS.ProcessEnv): { path: string } | { unavailable: string } {
  const dir = sessionsDirectory(env);
  try {
    makeDirectory(dir);
    const stat = statSync(dir);
    // Only the default directory is ours to tighten: one named by MCP_SPY_DIR is used as it is (it
    // may be a shared one: as root, MCP_SPY_DIR=/tmp made /tmp 0700). Each file is 0600 anyway.
    if (!env.MCP_SPY_DIR && (stat.mode & 0o077) !== 0 && stat.uid === process.getuid?.()) chmodSync(dir, 0o700);
  } catch (error) {
    return { unavailable: `cannot make ${dir}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}` };
  }
  return { path: dir };
}

/** A Unix socket's path is at most 107 bytes on Linux (103 on macOS). */
const socketPathBytes = 103;

/**
 * Where a spy with --intercept listens for the console: in the sessions directory, named after its
 * record (`client--server--...-4242.sock` beside `.jsonl`), or `intercept--STAMP-PID.sock` for a
 * record kept elsewhere; a short name when that is too long for a socket.
 */
export function controlSocketPath(env: NodeJS.ProcessEnv, record: string | undefined, started: Date, pid: number): { path: string } | { unavailable: string } {
  const dir = openSessionsDirectory(env);
  if ('unavailable' in dir) return dir;
  const inDir = record !== undefined && resolve(record, '..') === dir.path && parseSessionFileName(record) !== undefined;
  const names = [inDir ? basename(record).replace(/\.jsonl$/, '.sock') : `intercept--${stamp(started)}-${pid}.sock`, `${pid}.sock`];
  const path = names.map((name) => join(dir.path, name)).find((candidate) => Buffer.byteLength(candidate) <= socketPathBytes);
  return path ? { path } : { unavailable: `the sessions directory's path is too long for a socket (${dir.path})` };
}

/** Whether a process runs (or exists as another user's: EPERM): a session's writer, a lock's holder. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
