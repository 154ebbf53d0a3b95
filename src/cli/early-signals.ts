import { onStopSignals } from '../spy/signals.js';

// Loaded before the rest of the CLI: a client may stop a stdio spy while it is still starting
// (loading its modules takes a moment), and that stop must end in a record, not in silence.

/** The commands that are not the stdio spy: they handle their signals themselves. */
export const subcommands = ['demo', 'view', 'stats', 'check', 'replay', 'mock', 'http', 'export', 'import', 'report', 'diff', 'baseline', 'ui'] as const;

let received: NodeJS.Signals | undefined;
let release: (() => void) | undefined;

/** Holds the stop signals until the stdio spy takes them over; for a stdio spy's command line only. */
export function holdEarlySignals(argv: string[]): void {
  const at = argv.indexOf('--');
  if (at === -1 || argv.slice(0, at).some((arg) => (subcommands as readonly string[]).includes(arg))) return;
  release = onStopSignals((signal) => (received ??= signal));
}

/** Stops holding the signals; returns the first one that arrived meanwhile, if any. */
export function takeEarlySignal(): NodeJS.Signals | undefined {
  release?.();
  release = undefined;
  return received;
}
