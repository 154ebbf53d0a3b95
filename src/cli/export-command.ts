import { exportRecording } from '../export/export-recording.js';
import { recordToHar } from '../export/har-export.js';
import { otlpSettingsOf, resourceAttributesProblem } from '../export/otlp-settings.js';
import { SpyError, exitCodes } from './errors.js';
import { recordingEntries } from './recording-input.js';
import { version } from './version.js';
import { writeOutput } from './write-output.js';

export interface ExportOtlpOptions {
  endpoint?: string;
  otlpContent?: boolean;
  strict?: boolean;
  maxLine?: number;
}

/** `mcp-spy export otlp FILE`: the recording's spans and metrics to an OTLP collector, as the live spy sends them. */
export async function runExportOtlp(file: string, options: ExportOtlpOptions): Promise<number> {
  const otlp = otlpSettingsOf(options.endpoint, process.env, '--endpoint');
  if (!otlp.ok) throw new SpyError(otlp.reason);
  if (!otlp.settings) throw new SpyError('no collector: give --endpoint URL (e.g. http://127.0.0.1:4318) or set OTEL_EXPORTER_OTLP_ENDPOINT');
  const resource = resourceAttributesProblem(process.env);
  if (resource) throw new SpyError(resource);
  // A collector in trouble is an ExportFailure: exit 69 (errors.ts).
  const sent = await exportRecording(recordingEntries(file, { strict: options.strict, maxLine: options.maxLine }), otlp.settings, {
    content: options.otlpContent === true,
    spyVersion: version,
  });
  process.stdout.write(`exported ${sent.spans} span(s) of ${sent.sessions} session(s) to ${otlp.settings.shownUrl}\n`);
  return exitCodes.ok;
}

export interface ExportHarOptions {
  output?: string;
  strict?: boolean;
  maxLine?: number;
}

/** `mcp-spy export har FILE`: the recording as HAR 1.2, to a file or stdout. */
export async function runExportHar(file: string, options: ExportHarOptions): Promise<number> {
  const har = await recordToHar(recordingEntries(file, { strict: options.strict, maxLine: options.maxLine }), version);
  const text = `${JSON.stringify(har, null, 2)}\n`;
  writeOutput(options.output, text, { inputs: [file] });
  return exitCodes.ok;
}
