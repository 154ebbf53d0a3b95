import { readSse } from './sse.js';

/** A legacy HTTP+SSE session (2024-11-05): the stream the server answers on, and where to post. */
export interface LegacyStream {
  /** The URL the server's `endpoint` event named, resolved against the stream's. */
  endpoint: string;
  /** Settles when the server ends the stream (or it is aborted). */
  ended: Promise<void>;
}

/**
 * Opens the stream of a legacy HTTP+SSE server, as the specification's backwards-compatible clients
 * do once a POST was refused with a 4xx: a GET for `text/event-stream` whose first event is
 * `endpoint`. Resolves with the stream, or with why the URL is no such server either. Every later
 * event's data goes to `deliver`.
 */
export async function openLegacyStream(url: string, signal: AbortSignal, deliver: (data: string) => void): Promise<LegacyStream | { failure: string }> {
  let response: Response;
  try {
    response = await fetch(url, { method: 'GET', headers: { accept: 'text/event-stream' }, signal });
  } catch (error) {
    return { failure: `its GET failed too (${(error as Error).message})` };
  }
  const type = response.headers.get('content-type') ?? '';
  if (!response.ok || !type.includes('text/event-stream') || !response.body) {
    await response.body?.cancel().catch(() => {});
    return { failure: `its GET is no HTTP+SSE stream either (HTTP ${response.status}${type ? `, ${type.split(';')[0]}` : ''})` };
  }
  return new Promise((resolve) => {
    let endpoint: string | undefined;
    const ended = readSse(response.body!, (data, event) => {
      if (endpoint !== undefined) return deliver(data);
      if (event !== 'endpoint') return;
      endpoint = URL.canParse(data, url) ? new URL(data, url).href : undefined;
      resolve(endpoint ? { endpoint, ended } : { failure: `its endpoint event names no URL: ${data.slice(0, 80)}` });
    });
    void ended.then(() => endpoint === undefined && resolve({ failure: 'its event stream ended before an endpoint event' }));
  });
}
