import { onStopSignals } from '../spy/signals.js';

// Loaded before the rest of the CLI: a client may stop a stdio spy while it is still starting
// (loading its modules takes a moment), and that stop must end in a record, not in silence.

/** The commands that are not the stdio spy: they handle their signals themselves. */
export const subcommands = [
  'demo',
  'view',
  'stats',
  'check',
  'replay',
  'mock',
  'http',
  'export',
  'import',
  'report',
  'diff',
  'baseline',
  'wrap',
  'unwrap',
  'sessions',
  'ui',
] as const;

/** Options of the stdio spy whose value is any word: a server named `view` in a config is not the command. */
const wordOptions = new Set(['--name', '--client']);

let received: NodeJS.Signals | undefined;
let release: (() => void) | undefined;

/** The hold the bin puts on the stop signals as its first statement, before this module loads. */
export interface FirstHold {
  received(): NodeJS.Signals | undefined;
  release(): void;
}

/**
 * Holds the stop signals until the stdio spy takes them over, taking over the bin's first hold
 * (the new handlers first: a signal never finds none). Any other command lets a signal that came
 * meanwhile end it as it would have, and handles later ones itself.
 */
export function holdEarlySignals(argv: string[], first?: FirstHold): void {
  const at = argv.indexOf('--');
  const own = argv.slice(0, at);
  const stdioSpy = at !== -1 && !own.some((arg, index) => (subcommands as readonly string[]).includes(arg) && !wordOptions.has(own[index - 1] ?? ''));
  if (stdioSpy) release = onStopSignals((signal) => (received ??= signal));
  const early = first?.received();
  first?.release();
  if (!early) return;
  if (stdioSpy) received ??= early;
  else process.kill(process.pid, early);
}

/** Stops holding the signals; returns the first one that arrived meanwhile, if any. */
export function takeEarlySignal(): NodeJS.Signals | undefined {
  release?.();
  release = undefined;
  return received;
}
