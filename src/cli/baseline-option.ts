import { BaselineError, readBaseline } from '../drift/baseline.js';
import { pinsFromBaseline, type BaselineTools, type ToolPins } from '../wire/tool-pin.js';
import { SpyError } from './errors.js';

/** Reads `--baseline FILE` for check and the spies: a file it cannot use is one line and exit 2. */
export function loadBaseline(path: string): BaselineTools {
  try {
    return readBaseline(path);
  } catch (error) {
    if (error instanceof BaselineError) throw new SpyError(error.message);
    throw error;
  }
}

/** The pins of `--baseline FILE` for a spy, or none without the option. */
export function loadPins(path: string | undefined): ToolPins | undefined {
  return path === undefined ? undefined : pinsFromBaseline(loadBaseline(path));
}
