import { startHttpProxy } from '../transports/http-proxy.js';
import type { ListenAddress } from '../transports/http/target.js';
import { observeExchange } from './http-exchange.js';
import { createHttpSessions } from './http-sessions.js';
import type { Recorder } from './recorder.js';
import { createHeaderRedactor } from './redact-headers.js';

export interface HttpSessionOptions {
  target: URL;
  listen: ListenAddress;
  recorder: Recorder;
  maxFrame: number;
  /** Header names whose values the record hides, beside the default ones; `redact: false` hides none. */
  redactHeaders: string[];
  redact: boolean;
  version: string;
}

/**
 * The HTTP spy: a reverse proxy whose exchanges are observed into the recorder, one session per
 * Mcp-Session-Id, legacy endpoint, or stateless exchange. Rejects when it cannot listen.
 */
export async function startHttpSession(options: HttpSessionOptions) {
  const { recorder } = options;
  const sessions = createHttpSessions(recorder);
  const redact = createHeaderRedactor(options.redactHeaders, options.redact);
  const proxy = await startHttpProxy({
    target: options.target,
    listen: options.listen,
    observe: (start) => observeExchange(start, { recorder, sessions, maxFrame: options.maxFrame, redact }),
  });
  recorder.event(undefined, 'http', {
    summary: `listening on ${proxy.url}, forwarding to ${options.target.href}`,
    transport: 'http',
    listen: proxy.url,
    target: options.target.href,
    spy: options.version,
  });
  return {
    url: proxy.url,
    /** Stops the proxy; every open session's pending requests are reported as unanswered. */
    async close() {
      await proxy.close();
      sessions.endAll();
    },
  };
}
