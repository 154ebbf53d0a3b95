// Where spans and metrics go, read from the flag and the OTEL_* variables: no exporter loaded here,
// so the commands can check their options without loading the OpenTelemetry SDK.

/** The OTLP/HTTP encodings OTEL_EXPORTER_OTLP_PROTOCOL names that the spy speaks. */
export const otlpProtocols = ['http/protobuf', 'http/json'] as const;
export type OtlpProtocol = (typeof otlpProtocols)[number];

/** Where spans and metrics go, as the flag and the standard OTEL_EXPORTER_OTLP_* variables say. */
export interface OtlpSettings {
  protocol: OtlpProtocol;
  /** Given to the exporters: undefined leaves them to read OTEL_EXPORTER_OTLP_*_ENDPOINT themselves. */
  tracesUrl?: string;
  metricsUrl?: string;
  /** Where the spans go, for messages. */
  shownUrl: string;
}

type Env = Record<string, string | undefined>;

/** A variable's value, or undefined when it is unset or blank. */
export const setting = (value: string | undefined) => (value !== undefined && value.trim() !== '' ? value.trim() : undefined);

/** An OTLP/HTTP base URL (the collector's, e.g. http://127.0.0.1:4318), or why not. */
export function checkOtlpUrl(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'not a URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `OTLP/HTTP needs an http or https URL, not ${url.protocol}`;
  return undefined;
}

const signalUrl = (base: string, signal: 'traces' | 'metrics') => `${base.replace(/\/+$/, '')}/v1/${signal}`;

/**
 * The OTLP settings, or undefined when nothing asks for export: `--otlp URL` (a base URL, to which
 * /v1/traces and /v1/metrics are added, as OTEL_EXPORTER_OTLP_ENDPOINT), or the variables alone.
 * OTEL_SDK_DISABLED=true turns the variables off; a flag still wins.
 */
export function otlpSettingsOf(flag: string | undefined, env: Env, flagName = '--otlp'): { ok: true; settings?: OtlpSettings } | { ok: false; reason: string } {
  const endpoint = setting(env.OTEL_EXPORTER_OTLP_ENDPOINT);
  const tracesEndpoint = setting(env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
  const disabled = setting(env.OTEL_SDK_DISABLED)?.toLowerCase() === 'true';
  if (flag === undefined && (disabled || (endpoint === undefined && tracesEndpoint === undefined))) return { ok: true };
  const protocol = setting(env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL) ?? setting(env.OTEL_EXPORTER_OTLP_PROTOCOL) ?? 'http/protobuf';
  if (!(otlpProtocols as readonly string[]).includes(protocol)) {
    return { ok: false, reason: `OTEL_EXPORTER_OTLP_PROTOCOL ${JSON.stringify(protocol)} is not spoken here; use http/protobuf or http/json` };
  }
  const chosen = protocol as OtlpProtocol;
  if (flag !== undefined) {
    const problem = checkOtlpUrl(flag);
    if (problem) return { ok: false, reason: `bad ${flagName} ${JSON.stringify(flag)}: ${problem}; expected a collector URL such as http://127.0.0.1:4318` };
    return {
      ok: true,
      settings: { protocol: chosen, tracesUrl: signalUrl(flag, 'traces'), metricsUrl: signalUrl(flag, 'metrics'), shownUrl: signalUrl(flag, 'traces') },
    };
  }
  const shown = tracesEndpoint ?? signalUrl(endpoint!, 'traces');
  const problem = checkOtlpUrl(shown);
  if (problem) return { ok: false, reason: `bad OTEL_EXPORTER_OTLP_ENDPOINT ${JSON.stringify(shown)}: ${problem}` };
  return { ok: true, settings: { protocol: chosen, shownUrl: shown } };
}

/**
 * Why OTEL_RESOURCE_ATTRIBUTES cannot be read, or undefined. The OpenTelemetry SDK discards a
 * malformed value without a word; the spy says so instead, by the same rules: comma-separated
 * `key=value` pairs, `,` and `=` percent-encoded, no empty key, at most 255 characters each.
 */
export function resourceAttributesProblem(env: Env): string | undefined {
  const value = setting(env.OTEL_RESOURCE_ATTRIBUTES);
  if (value === undefined) return undefined;
  for (const pair of value.split(',').filter((item) => item.trim() !== '')) {
    const parts = pair.split('=');
    const why =
      parts.length !== 2
        ? 'is not key=value (percent-encode "," and "=" inside keys and values)'
        : parts[0]!.trim() === ''
          ? 'has an empty key'
          : decodingProblem(parts);
    if (why) return `bad OTEL_RESOURCE_ATTRIBUTES: ${JSON.stringify(pair)} ${why}; expected e.g. deployment.environment=prod,team=tools`;
  }
  return undefined;
}

function decodingProblem(parts: string[]): string | undefined {
  try {
    return parts.some((part) => decodeURIComponent(part.trim()).length > 255) ? 'is longer than 255 characters' : undefined;
  } catch {
    return 'is not valid percent-encoding';
  }
}
