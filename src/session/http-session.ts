import { startHttpProxy, type ClientTimeouts } from '../transports/http-proxy.js';
import type { ListenAddress } from '../transports/http/target.js';
import type { HttpObserver } from './http-observer.js';

export interface HttpSessionOptions {
  target: URL;
  listen: ListenAddress;
  /** How long a client may take to send a request, or idle between requests (default: Node's). */
  timeouts?: ClientTimeouts;
  /** Host and Origin values accepted beyond the spy's own and loopback ones. */
  allowHosts?: readonly string[];
  allowOrigins?: readonly string[];
  /** Where the exchanges go to be recorded (on the observer thread). */
  observer: HttpObserver;
  version: string;
}

/**
 * The HTTP spy: a reverse proxy whose exchanges are observed on another thread into the record,
 * one session per Mcp-Session-Id, legacy endpoint, or stateless exchange. Rejects when it cannot listen.
 */
export async function startHttpSession(options: HttpSessionOptions) {
  const { observer } = options;
  const { target, listen, timeouts, allowHosts, allowOrigins } = options;
  const proxy = await startHttpProxy({ target, listen, timeouts, allowHosts, allowOrigins, observe: observer.observe });
  observer.event('http', {
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
      observer.stopped();
    },
  };
}
