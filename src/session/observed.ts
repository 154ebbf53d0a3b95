import type { ObserverOutputs } from './observer-protocol.js';

/**
 * Whether anything would come of observing: a record, a log or a live view. When none would, the
 * spy starts no observer thread and copies no byte for one (the forwarding stays all there is).
 */
export function isObserved(outputs: ObserverOutputs): boolean {
  return outputs.recordPath !== undefined || outputs.logPath !== undefined || outputs.live || outputs.export !== undefined;
}
