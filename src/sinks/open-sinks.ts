import { humanLog } from './human-log.js';
import { liveView } from './live-view.js';
import { recordFile } from './record-file.js';
import type { Sink, SinkContext, SinkKind, SinkOutputs } from './sink.js';
import type { StderrOut } from './stderr-out.js';
import { telemetryExport } from './telemetry-export.js';

/** Every kind of sink, in the order each entry reaches them. An exporter is one more line here. */
const sinkKinds: readonly SinkKind[] = [recordFile, humanLog, liveView, telemetryExport];

/**
 * Whether anything would come of observing: a record, a log, a live view, an exporter. When none
 * would, the spy starts no observer thread and copies no byte for one (the forwarding stays all there is).
 */
export function isObserved(outputs: SinkOutputs): boolean {
  return sinkKinds.some((kind) => kind.wanted(outputs));
}

/** The sinks the outputs ask for, loaded, each to be opened with what the observing side gives it. */
export async function sinksFor(outputs: SinkOutputs, stderr: StderrOut): Promise<((context: SinkContext) => Sink)[]> {
  const opens = await Promise.all(sinkKinds.filter((kind) => kind.wanted(outputs)).map((kind) => kind.load()));
  return opens.map((open) => (context: SinkContext) => open(outputs, context, stderr));
}
