import type { Sink, SinkContext, SinkKind, SinkOutputs } from './sink.js';

/** The OpenTelemetry exports (--otlp, --metrics): spans and metrics from every entry, sent as they come. */
export const telemetryExport: SinkKind = {
  wanted: (outputs) => outputs.export !== undefined,
  async load() {
    // Loaded only when asked for: the OpenTelemetry SDK is large.
    const { createExportSink } = await import('../export/export-sink.js');
    return (outputs: SinkOutputs, context: SinkContext): Sink => {
      const exported = createExportSink(outputs.export!, { warn: context.warn, note: context.note });
      return {
        entry: (entry, message) => exported.entry(entry, message),
        end: () => exported.close(),
        backlog: () => 0,
        caughtUp: () => Promise.resolve(),
        flush: () => Promise.resolve(),
        closeNow: () => {},
      };
    };
  },
};
