import { countItems, type ReplayResult, type SessionResult } from './result.js';
import { checkedPaths, ignoresFor } from '../recording/ignore.js';
import { driveSession } from './drive-session.js';
import { ReplayError } from '../recording/errors.js';
import { loadRecording, selectSessions, type LoadOptions } from '../recording/load.js';
import type { PeerFactory } from './peer.js';
import { startHttpPeer } from './peer-http.js';
import { startStdioPeer } from './peer-stdio.js';
import { collectItems, type SessionOutcome } from './session-items.js';
import { updateRecording } from './update.js';
import { defaultFollows } from './value-map.js';

/** What to replay against what. Exactly one of `server` and `target`. */
export interface ReplayOptions extends LoadOptions {
  /** The recording (wire.jsonl). */
  recording: string;
  /** The server's command line: each session gets a fresh process. */
  server?: readonly string[];
  /** A Streamable HTTP endpoint, e.g. http://127.0.0.1:3000/mcp: each session is a new HTTP session. */
  target?: string;
  /** More paths to leave out of comparisons (JSONPath, from the message root). */
  ignore?: readonly string[];
  /** Read `<recording>.ignore` too (default true). */
  ignoreFile?: boolean;
  /** Per response, in ms (default 10000). */
  timeoutMs?: number;
  /** Send client frames as recorded without waiting for earlier responses. */
  concurrency?: boolean;
  /** Compare the server's notifications too. */
  notifications?: boolean;
  /** More places where the server hands out values its client sends back (JSONPath, from the message root). */
  map?: readonly string[];
  /** 1 keeps the recorded gaps between client frames (default 0). */
  speed?: number;
  /** Replay only this session (its id, or the start of it). */
  session?: string;
  /** Rewrite the recording with the server frames that changed. */
  update?: boolean;
  /** Told, in one line, what the replay waits for when a wait goes on for seconds. */
  onWaiting?: (text: string) => void;
}

export const defaultTimeoutMs = 10_000;

function checkOptions(options: ReplayOptions): { openPeer: PeerFactory; target: string } {
  const hasServer = options.server !== undefined && options.server.length > 0;
  if (hasServer === (options.target !== undefined)) throw new ReplayError('give the server command after -- or --target URL (one of them)');
  if (options.target !== undefined) {
    let url: URL;
    try {
      url = new URL(options.target);
    } catch {
      throw new ReplayError(`--target ${options.target}: not a URL`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ReplayError(`--target ${options.target}: not an http(s) URL`);
    return { openPeer: (handlers) => startHttpPeer(url.href, handlers), target: url.href };
  }
  const command = options.server!;
  return { openPeer: (handlers) => startStdioPeer(command, handlers), target: command.join(' ') };
}

/**
 * Replays a recording against a real server: sends the recorded client frames, answers the server's
 * requests from the recording, and compares each response with the recorded one.
 */
export async function replay(options: ReplayOptions): Promise<ReplayResult> {
  const started = performance.now();
  const { openPeer, target } = checkOptions(options);
  const timeoutMs = options.timeoutMs ?? defaultTimeoutMs;
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) throw new ReplayError('--timeout must be a positive number of milliseconds');
  const recording = await loadRecording(options.recording, options);
  const ignores = ignoresFor(options.recording, options.ignore, options.ignoreFile ?? true);
  const speed = options.speed ?? 0;
  if (speed !== 0 && speed !== 1) throw new ReplayError('--speed must be 0 (no delays) or 1 (recorded timing)');
  const follows = [...defaultFollows, ...checkedPaths(options.map ?? [], '--map')];
  const drive = {
    timeoutMs,
    concurrency: options.concurrency ?? false,
    notifications: options.notifications ?? false,
    ignores,
    follows,
    speed: speed as 0 | 1,
    onWaiting: options.onWaiting,
  };
  const outcomes: SessionOutcome[] = [];
  for (const session of selectSessions(recording, options.session)) {
    const driven = await driveSession(session, openPeer, drive);
    outcomes.push(collectItems(session, driven, drive));
  }
  const sessions: SessionResult[] = outcomes.map((outcome) => outcome.result);
  const counts = countItems(sessions);
  const updated = options.update
    ? await updateRecording(
        options.recording,
        outcomes.flatMap((outcome) => outcome.changes),
      )
    : undefined;
  return {
    ok: counts.changed + counts.missing + counts.extra === 0,
    recording: options.recording,
    target,
    ignores,
    sessions,
    counts,
    skipped: recording.skipped,
    durationMs: Math.round(performance.now() - started),
    ...(updated !== undefined ? { updated } : {}),
  };
}
