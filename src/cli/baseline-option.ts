import { BaselineError, readBaseline } from '../drift/baseline.js';
import { pinsFromBaseline, type ToolPins } from '../wire/correlate/tool-pin.js';

/**
 * The pins of `--baseline FILE` for a spy, or none without the option. A file it cannot use costs
 * one line and the spy runs without pins: the session is not the baseline's to stop.
 */
export function loadPins(path: string | undefined, warn: (line: string) => void): ToolPins | undefined {
  if (path === undefined) return undefined;
  try {
    return pinsFromBaseline(readBaseline(path));
  } catch (error) {
    const why = error instanceof BaselineError ? error.message : `baseline ${path} cannot be used (${(error as Error).message})`;
    warn(`${why}; tools are not compared with a baseline in this run`);
    return undefined;
  }
}
