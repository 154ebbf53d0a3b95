import type { Key } from 'ink';
import type { HeldItem, HoldEffect } from './held-types.js';
import type { SourceEntry } from './rows.js';

/** What can happen to the console: entries arriving, the terminal changing size, a key's meaning. */
export type Action =
  | { type: 'entries'; items: readonly SourceEntry[] }
  | { type: 'resize'; width: number; height: number }
  | { type: 'move'; by: number }
  | { type: 'page'; by: 1 | -1 }
  | { type: 'top' }
  | { type: 'bottom' }
  | { type: 'open' }
  | { type: 'back' }
  | { type: 'filter-start' }
  /** `apply`: the text ended with Enter (typed in one chunk with it): applied at once. */
  | { type: 'filter-edit'; text: string }
  | { type: 'filter-apply' }
  | { type: 'filter-cancel' }
  | { type: 'match'; by: 1 | -1 }
  | { type: 'follow' }
  | { type: 'pause' }
  | { type: 'tab' }
  | { type: 'unfold' }
  /** Looks whether each live session's writer still runs (the shell sends it every second). */
  | { type: 'liveness'; alive: (pid: number) => boolean }
  | { type: 'help' }
  | { type: 'status'; text: string | undefined }
  /** A key pressed: read against the state it arrives in (keys typed fast must not see an old one). */
  | { type: 'key'; input: string; key: Key }
  | { type: 'effect-done'; text?: string }
  /** The held screen (i), and what the spies' control sockets say: a frame held, let go, a spy gone, a release refused. */
  | { type: 'held-open' }
  | { type: 'held'; item: HeldItem }
  | { type: 'released'; socket: string; hold: number }
  | { type: 'spy-gone'; socket: string }
  | { type: 'held-problem'; socket: string; hold: number; text?: string };

/** What the console does outside its state: leave, copy a frame, export the stream, stop for Ctrl-Z. */
export type Effect = 'quit' | 'copy' | 'export' | 'export-har' | 'export-report' | 'suspend' | HoldEffect;
