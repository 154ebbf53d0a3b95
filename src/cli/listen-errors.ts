import { createServer } from 'node:net';
import { hostPort } from '../transports/http/target.js';
import { exitCodes, SpyError } from './errors.js';

/** Why a server of ours cannot listen, in words, by the error's code. */
const listenProblems = new Map<string, string>([
  ['EADDRINUSE', 'the port is already in use'],
  ['EADDRNOTAVAIL', 'the address is not one of this machine'],
  ['EACCES', 'permission denied (a port below 1024?)'],
  ['ENOTFOUND', 'unknown host name'],
]);

const problemOf = (error: unknown) => listenProblems.get((error as NodeJS.ErrnoException).code ?? '') ?? (error as Error).message;

/** The one line and exit status when `http` or `mock --listen` cannot listen where asked. */
export function listenFailure(host: string, port: number, error: unknown, what = 'listen'): SpyError {
  return new SpyError(`cannot ${what} on ${hostPort(host, port)}: ${problemOf(error)}`, exitCodes.unavailable);
}

/**
 * Refuses a `--metrics` address the spy cannot listen on (a port in use, an address not of this
 * machine) before anything starts, as a bad `--listen` is: the endpoint itself opens later, on the
 * observer thread, where it could only be regretted.
 */
export async function checkMetricsAddress(metrics: { host: string; port: number } | undefined): Promise<void> {
  if (!metrics || metrics.port === 0) return;
  const server = createServer();
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(metrics.port, metrics.host, () => resolve());
    });
  } catch (error) {
    throw listenFailure(metrics.host, metrics.port, error, 'serve metrics');
  } finally {
    server.close();
  }
}
