import { humanLog } from './human-log.js';
import { liveView } from './live-view.js';
import { recordFile } from './record-file.js';
import type { Sink, SinkContext, SinkOutputs } from './sink.js';
import type { StderrOut } from './stderr-out.js';

/** A kind of sink: whether the outputs ask for it, and how it opens (on the observer thread). */
export interface SinkKind {
  wanted(outputs: SinkOutputs): boolean;
  open(outputs: SinkOutputs, context: SinkContext, stderr: StderrOut): Sink;
}

/** Every kind of sink, in the order each entry reaches them. An exporter is one more line here. */
const sinkKinds: readonly SinkKind[] = [recordFile, humanLog, liveView];

/**
 * Whether anything would come of observing: a record, a log, a live view, an exporter. When none
 * would, the spy starts no observer thread and copies no byte for one (the forwarding stays all there is).
 */
export function isObserved(outputs: SinkOutputs): boolean {
  return sinkKinds.some((kind) => kind.wanted(outputs));
}

/** The sinks the outputs ask for, each to be opened with what the observing side gives it. */
export function sinksFor(outputs: SinkOutputs, stderr: StderrOut): ((context: SinkContext) => Sink)[] {
  return sinkKinds.filter((kind) => kind.wanted(outputs)).map((kind) => (context: SinkContext) => kind.open(outputs, context, stderr));
}
