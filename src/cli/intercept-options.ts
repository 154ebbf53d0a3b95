// --intercept FILTER, --hold-timeout, --max-held: read before anything starts; the filter language
// (and the intercept itself) is loaded only when the option is given.
import { InvalidArgumentError } from 'commander';
import { controlSocketPath } from '../record/sessions-dir.js';
import type { InterceptPlan } from '../faults/intercept-hook.js';
import { SpyError } from './errors.js';
import type { FaultOptions } from './fault-options.js';

export interface InterceptCommandOptions {
  intercept?: string;
  /** ms a frame is held at most. */
  holdTimeout: number;
  maxHeld: number;
}

// Under the 60 s an SDK client waits for an answer by default: a hold nobody attends ends before the client gives up.
export const defaultHoldMs = 30_000;
export const defaultMaxHeld = 100;

/** `--max-held N`: a whole number from 1. */
export function parseMaxHeld(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1) throw new InvalidArgumentError('expected a whole number of frames, 1 or more');
  return Number(value);
}

/**
 * The intercept the options ask for, undefined without --intercept. A bad filter, or --intercept
 * beside fault rules, stops the run (exit 2) before the server starts.
 */
export async function interceptPlanOf(
  options: InterceptCommandOptions & FaultOptions,
  record: string | undefined,
  hello: Record<string, unknown>,
): Promise<InterceptPlan | undefined> {
  if (options.intercept === undefined) return undefined;
  if ((options.fault ?? []).length > 0 || options.faults !== undefined)
    throw new SpyError('--intercept and --fault (or --faults) cannot be used together: run with one or the other');
  const { parseFilter } = await import('../review/filter-expression.js');
  const parsed = parseFilter(options.intercept);
  if (!parsed.ok) throw new SpyError(`--intercept '${options.intercept}': ${parsed.message}`);
  const place = controlSocketPath(process.env, record, new Date(), process.pid);
  return {
    options: { filter: options.intercept, test: parsed.test, holdMs: options.holdTimeout, maxHeld: options.maxHeld },
    ...('path' in place ? { socketPath: place.path } : { socketProblem: `no control socket (${place.unavailable})` }),
    hello: { ...hello, ...(record !== undefined ? { record } : {}) },
  };
}
