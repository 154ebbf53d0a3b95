import { lstatSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { isFrameEntry } from '../record/frame-message.js';
import { readRecording } from '../record/open-recording.js';
import { alive, parseSessionFileName } from '../record/sessions-dir.js';

/** Where a session file stands: its spy still writing it, done (an exit entry), or stopped without one. */
export type SessionFileState = 'live' | 'ended' | 'cut-short';

/** One session file of the sessions directory, as `mcp-spy sessions` shows it. */
export interface SessionFile {
  file: string;
  /** The server's key, from the file's name: its client and entry name (file-safe). */
  key: string;
  /** The client and entry name from the spawn entry (as written), else from the file's name (made file-safe). */
  client: string;
  server: string;
  started: string;
  pid: number;
  bytes: number;
  frames: number;
  /** Protocol errors and tool errors. */
  errors: number;
  state: SessionFileState;
  /** When the file was last written. */
  modified: string;
  /** Why the file could not be read, when it could not. */
  unreadable?: string;
}

const errorKinds = new Set(['tool-error', 'protocol-error']);

/**
 * Whether a name of the directory is a file a spy wrote: a regular file of this user's own. A link
 * planted there (to a file outside, to a FIFO a reader would hang on), a directory or another
 * user's file is no session: readers neither read it nor prune it.
 */
function ownRegularFile(file: string): boolean {
  try {
    const stat = lstatSync(file);
    const uid = process.getuid?.();
    return stat.isFile() && (uid === undefined || stat.uid === uid);
  } catch {
    return false;
  }
}

/** The files of the directory the spies named, oldest first; none when the directory does not exist. */
export function sessionFileNames(dir: string): { file: string; parts: NonNullable<ReturnType<typeof parseSessionFileName>> }[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  return names
    .flatMap((name) => {
      const parts = parseSessionFileName(name);
      const file = join(dir, name);
      return parts && ownRegularFile(file) ? [{ file, parts }] : [];
    })
    .sort((a, b) => a.parts.started.getTime() - b.parts.started.getTime() || a.file.localeCompare(b.file));
}

/** Reads one session file through: counts, its labels, whether it ended. */
async function readSessionFile(file: string, parts: NonNullable<ReturnType<typeof parseSessionFileName>>): Promise<SessionFile> {
  const stat = statSync(file);
  const session: SessionFile = {
    file,
    key: serverKey(parts),
    client: parts.client,
    server: parts.server,
    started: parts.started.toISOString(),
    pid: parts.pid,
    bytes: stat.size,
    frames: 0,
    errors: 0,
    state: 'cut-short',
    modified: stat.mtime.toISOString(),
  };
  let exited = false;
  let httpSpy = false;
  try {
    for await (const { entry } of readRecording(file)) {
      if (isFrameEntry(entry)) session.frames += 1;
      if (errorKinds.has(entry.kind)) session.errors += 1;
      // The stdio spy names itself on its spawn entry, the HTTP spy on its first http entry.
      if (entry.kind === 'http' && entry.transport === 'http') httpSpy = true;
      if (entry.kind === 'spawn' || entry.kind === 'http') {
        if (typeof entry.client === 'string') session.client = entry.client;
        if (typeof entry.name === 'string') session.server = entry.name;
      }
      if (entry.kind === 'exit') exited = true;
    }
  } catch (error) {
    session.unreadable = (error as Error).message;
  }
  // An HTTP spy writes no end of its own (it serves until stopped): it has ended when it runs no more.
  session.state = alive(parts.pid) && !(exited && !httpSpy) ? 'live' : exited || httpSpy ? 'ended' : 'cut-short';
  return session;
}

/** Every session file of the directory, oldest first, each read through. */
export async function listSessionFiles(dir: string): Promise<SessionFile[]> {
  const sessions: SessionFile[] = [];
  for (const { file, parts } of sessionFileNames(dir)) {
    try {
      sessions.push(await readSessionFile(file, parts));
    } catch {
      // Removed (pruned) between the listing and the reading: not a session any more.
    }
  }
  return sessions;
}

/** The key a server's sessions share: its client and name, as in the file names. */
export function serverKey(parts: { client: string; server: string }): string {
  return `${parts.client}--${parts.server}`;
}
