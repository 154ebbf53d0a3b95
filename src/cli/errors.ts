import { sanitize } from '../render/sanitize.js';

/** Exit statuses of mcp-spy itself, in one place. A spied server's own code passes through as is. */
export const exitCodes = {
  ok: 0,
  findings: 1,
  badUse: 2,
  /** The spy cannot listen where asked (port in use, address not ours). */
  unavailable: 69,
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
 * Turns anything thrown into the one line a user sees, and its exit status. The message may quote
 * the wire (a session id, a server's stderr): it is made safe to print, on one line.
 */
export function describeFailure(error: unknown, debug: boolean): { line: string; exitCode: number } {
  if (error instanceof SpyError) return { line: `mcp-spy: ${sanitize(error.message)}`, exitCode: error.exitCode };
  const message = error instanceof Error ? error.message : String(error);
  const stack = debug && error instanceof Error && error.stack ? `\n${error.stack}` : '';
  return { line: `mcp-spy: internal error: ${sanitize(message.split('\n')[0]!)}${stack}`, exitCode: 70 };
}
