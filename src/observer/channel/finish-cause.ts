import { constants } from 'node:os';
import { controlSlots } from './channel-messages.js';

const signalNames = new Map(Object.entries(constants.signals).map(([name, number]) => [BigInt(number), name]));

/**
 * What cut the finishing of the record short, for a gap's reason: the stop signal that moved the
 * deadline to its moment, or --drain-timeout.
 */
export function finishCause(control: BigInt64Array | undefined): string {
  const signal = control ? Atomics.load(control, controlSlots.cutBy) : 0n;
  return signalNames.get(signal) ?? '--drain-timeout';
}

/** `finishCause` as a gap's reason says it: "(--drain-timeout)", or "(SIGINT cut finishing short)". */
export const causeInWords = (cause: string): string => (cause === '--drain-timeout' ? `(${cause})` : `(${cause} cut finishing short)`);

/** The number `finishCause` reads back for a stop signal. */
export const signalNumber = (signal: NodeJS.Signals): bigint => BigInt(constants.signals[signal]);
