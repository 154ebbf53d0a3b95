import { sanitize } from '../render/sanitize.js';

/** Exit statuses of mcp-spy itself, in one place. A spied server's own code passes through as is. */
export const exitCodes = {
  ok: 0,
  findings: 1,
  badUse: 2,
  /** The spy cannot listen where asked (port in use, address not ours). */
  unavailable: 69,
  /** A fault of mcp-spy itself (a bug): one line, the stack with --debug. */
  internal: 70,
  notExecutable: 126,
  notFound: 127,
} as const;

/** A failure of the spy (not of a peer): one clear line, a known exit status, no stack trace. */
export class SpyError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = exitCodes.badUse,
  ) {
    super(message);
    this.name = 'SpyError';
  }
}

/**
 * The one table from what a command may throw to the status it exits with. Each room throws its own
 * error, worded for the user, and knows nothing of exit statuses; the commands let it through and
 * it is looked up here. By the error's name (each class sets it), so that loading this table loads
 * none of those rooms: a spy starts without the exporters, the report or replay. `carried`: the
 * error holds its status (a SpyError's is chosen where it is thrown; a ReplayError's is part of the
 * library's API). What is not here is an internal error. A port the spy cannot listen on is a
 * SpyError worded with its address (listen-errors.ts).
 */
const failureStatuses: Record<string, number | 'carried'> = {
  SpyError: 'carried',
  /** 2: a recording or option replay cannot use; 126, 127: a server that cannot be started; 1: one that died at once. */
  ReplayError: 'carried',
  /** A recording that cannot be read at all: missing, not a recording, from a newer mcp-spy. */
  RecordReadError: exitCodes.badUse,
  /** A `--baseline` lock file that cannot be used. */
  BaselineError: exitCodes.badUse,
  /** The report's page is not built: this copy of mcp-spy was not built whole. */
  ReportPageMissing: exitCodes.badUse,
  /** `export otlp`: the collector refused, is not there, or did not answer in time. */
  ExportFailure: exitCodes.unavailable,
};

/** The exit status of a failure the table knows, or undefined for an internal error. */
export function failureStatus(error: unknown): number | undefined {
  if (!(error instanceof Error) || !Object.hasOwn(failureStatuses, error.name)) return undefined;
  const status = failureStatuses[error.name]!;
  if (status !== 'carried') return status;
  const { exitCode } = error as Error & { exitCode?: unknown };
  return typeof exitCode === 'number' ? exitCode : undefined;
}

/**
 * Turns anything thrown into the one line a user sees, and its exit status. The message may quote
 * the wire (a session id, a server's stderr): it is made safe to print, on one line.
 */
export function describeFailure(error: unknown, debug: boolean): { line: string; exitCode: number } {
  const status = failureStatus(error);
  if (status !== undefined) return { line: `mcp-spy: ${sanitize((error as Error).message)}`, exitCode: status };
  const message = error instanceof Error ? error.message : String(error);
  const stack = debug && error instanceof Error && error.stack ? `\n${error.stack}` : '';
  return { line: `mcp-spy: internal error: ${sanitize(message.split('\n')[0]!)}${stack}`, exitCode: exitCodes.internal };
}
