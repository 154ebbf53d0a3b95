import { isObject, pick } from '../protocol/jsonrpc.js';
import { isFrameEntry, messageOf } from '../record/frame-message.js';
import { learnFromFrame, mayTell, newSessionFacts, type PeerInfo, type SessionFacts } from '../record/session-facts.js';
import { parseSessionFileName } from '../record/sessions-dir.js';
import { jsonBytes, type SourceEntry } from './rows.js';

/** What the sessions list shows of one session. */
export interface SessionInfo {
  key: string;
  file: string;
  /** The record's session id, when it has one. */
  id?: string;
  /** The client config's entry name and the client, from the spawn entry or the file's name. */
  name?: string;
  clientName?: string;
  command?: string[];
  transport?: string;
  server?: PeerInfo;
  client?: PeerInfo;
  revision?: string;
  frames: number;
  /** Tool errors, protocol errors and invalid frames. */
  errors: number;
  first?: string;
  last?: string;
  /**
   * The server exited (a stdio spy writes an exit entry when it ends), or the process that wrote
   * the record runs no more (an HTTP spy writes no end; a spy that crashed had no time to).
   */
  ended: boolean;
  /** The writer's process: the spy's, from a session file's name, else the server's, from the spawn entry. */
  pid?: number;
  /** Each listed tool's definition, by name: its size in bytes as JSON. */
  toolBytes: Map<string, number>;
  facts: SessionFacts;
}

const errorKinds = new Set(['tool-error', 'protocol-error', 'invalid']);

export function newSession(key: string, item: SourceEntry): SessionInfo {
  const named = parseSessionFileName(item.file);
  const id = typeof item.entry.session === 'string' ? item.entry.session : undefined;
  return {
    key,
    file: item.file,
    id,
    name: named?.server,
    clientName: named?.client,
    frames: 0,
    errors: 0,
    ended: false,
    pid: named?.pid,
    toolBytes: new Map(),
    facts: newSessionFacts(id ?? ''),
  };
}

const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);

/** Adds what one entry says to its session: counts, times, who the peers are, its tools. */
export function learnSession(session: SessionInfo, item: SourceEntry): void {
  const { entry } = item;
  if (typeof entry.t === 'string') {
    session.first ??= entry.t;
    session.last = entry.t;
  }
  if (entry.kind === 'spawn') {
    // The spawn entry of a wrapped spy names its config entry and client (fields a later record adds).
    const extra = entry as unknown as Record<string, unknown>;
    session.name = text(extra.name) ?? session.name;
    session.clientName = text(extra.client) ?? session.clientName;
    if (Array.isArray(entry.command)) session.command = entry.command.map(String);
    if (typeof entry.transport === 'string') session.transport = entry.transport;
    if (typeof entry.pid === 'number') session.pid ??= entry.pid;
  }
  if (entry.kind === 'http' && entry.transport === 'http') session.transport = 'http';
  if (entry.kind === 'exit') session.ended = true;
  if (!isFrameEntry(entry)) return;
  session.frames++;
  if (errorKinds.has(entry.kind)) session.errors++;
  if (!mayTell(entry, session.facts)) return;
  const message = messageOf(entry);
  learnFromFrame(session.facts, entry, message);
  session.server = session.facts.server;
  session.client = session.facts.client;
  session.revision = session.facts.revision;
  if (entry.method === 'tools/list' && entry.dir === 's2c') {
    const tools = pick(message, 'result', 'tools');
    if (Array.isArray(tools)) for (const tool of tools) if (isObject(tool) && typeof tool.name === 'string') session.toolBytes.set(tool.name, jsonBytes(tool));
    // The facts keep each tool's definition; the console needs only its size.
    session.facts.tools.clear();
  }
}

/** The server's name for people: what it said, else its config entry, else its command. */
export function serverLabel(session: SessionInfo): string {
  return session.server?.name ?? session.name ?? session.command?.join(' ') ?? (session.id || 'session');
}

/** The client's name for people: what it said, else the client of the config it was wrapped from. */
export function clientLabel(session: SessionInfo): string {
  return session.client?.name ?? session.clientName ?? '?';
}

/**
 * The sessions that no exit entry ended but whose writer runs no more (checked by `alive`, the
 * `sessions` command's test): an HTTP spy stopped, a spy killed. A session with no pid is left as it is.
 */
export function goneSessions(sessions: readonly SessionInfo[], alive: (pid: number) => boolean): SessionInfo[] {
  return sessions.filter((session) => !session.ended && session.pid !== undefined && !alive(session.pid));
}
