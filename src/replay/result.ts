import type { JsonRpcId } from '../protocol/jsonrpc.js';
import type { DiffEntry } from '../recording/compare.js';

/** What became of one recorded (or unexpected) message in a replay. */
export type ItemStatus = 'same' | 'changed' | 'missing' | 'extra';
export const itemStatuses = ['same', 'changed', 'missing', 'extra'] as const satisfies readonly ItemStatus[];

/** What was compared: the answer to a client request, a server notification, or a request the server made. */
export type ItemKind = 'response' | 'notification' | 'server-request';

export interface ReplayItem {
  status: ItemStatus;
  kind: ItemKind;
  method: string;
  /** The tool, prompt or resource the request was about, when it had one. */
  name?: string;
  /** The recorded request's id (client requests) or the live one (extra items). */
  id?: JsonRpcId;
  /** The recorded frame: its seq in its session and its line in the record file. */
  seq?: number;
  line?: number;
  /** Milliseconds the live answer took. */
  latencyMs?: number;
  /** changed: the differences, paths from the message root. */
  diff?: DiffEntry[];
  /** missing or extra: why, in a few words. */
  reason?: string;
  recorded?: unknown;
  actual?: unknown;
}

export interface SessionResult {
  session: string;
  transport: 'stdio' | 'http';
  revision?: string;
  probe: boolean;
  items: ReplayItem[];
}

export type StatusCounts = Record<ItemStatus, number>;

/** The outcome of a replay: what the CLI prints and exits with, and what `replay()` resolves to. */
export interface ReplayResult {
  /** True when every item is `same`. */
  ok: boolean;
  recording: string;
  /** The server command or `--target` URL replayed against. */
  target: string;
  ignores: string[];
  sessions: SessionResult[];
  counts: StatusCounts;
  /** Frames of the recording that were not replayed (invalid, truncated, not UTF-8). */
  skipped: number;
  durationMs: number;
  /** Set when --update rewrote the recording: how many server frames were replaced. */
  updated?: number;
}

export function countItems(sessions: readonly SessionResult[]): StatusCounts {
  const counts: StatusCounts = { same: 0, changed: 0, missing: 0, extra: 0 };
  for (const session of sessions) for (const item of session.items) counts[item.status]++;
  return counts;
}
