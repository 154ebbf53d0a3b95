import { hostPort } from '../transports/http/target.js';
import { exitCodes, SpyError } from './errors.js';

/** Why a server of ours cannot listen, in words, by the error's code. */
const listenProblems = new Map<string, string>([
  ['EADDRINUSE', 'the port is already in use'],
  ['EADDRNOTAVAIL', 'the address is not one of this machine'],
  ['EACCES', 'permission denied (a port below 1024?)'],
  ['ENOTFOUND', 'unknown host name'],
]);

/** The one line and exit status when `http` or `mock --listen` cannot listen where asked. */
export function listenFailure(host: string, port: number, error: unknown): SpyError {
  const code = (error as NodeJS.ErrnoException).code ?? '';
  return new SpyError(`cannot listen on ${hostPort(host, port)}: ${listenProblems.get(code) ?? (error as Error).message}`, exitCodes.unavailable);
}
