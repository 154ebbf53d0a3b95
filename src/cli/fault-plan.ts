// Whether a command was given fault options, and their rules: the reading (and YAML) is loaded only then.
import type { FaultOptions } from './fault-options.js';

/** The fault rules the options name; without a fault option none of that code is even loaded. */
export async function faultPlanOf(options: FaultOptions, transport: 'stdio' | 'http') {
  if ((options.fault ?? []).length === 0 && options.faults === undefined && options.seed === undefined) return undefined;
  const { readFaultOptions } = await import('./fault-options.js');
  return readFaultOptions(options, transport);
}
