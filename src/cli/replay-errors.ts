import { ReplayError } from '../recording/errors.js';
import { SpyError } from './errors.js';

/** A replay or mock that could not run becomes one line and its exit status; anything else passes on. */
export function asSpyError(error: unknown): unknown {
  return error instanceof ReplayError ? new SpyError(error.message, error.exitCode) : error;
}
