import type { IncomingHttpHeaders } from 'node:http';
import { hostPort, type ListenAddress } from './target.js';

/** The Host and Origin values a request may carry to be forwarded. */
export interface HostPolicy {
  /** `host:port`, or a bare host name that any port goes with; lower case. */
  hosts: Set<string>;
  /** The spy's own host names: a Host without a port (an HTTP/1.0 habit) names the spy too. */
  names: Set<string>;
  /** Origins beyond the loopback ones, lower case, without a trailing slash. */
  origins: Set<string>;
}

const loopbackNames = ['127.0.0.1', 'localhost', '[::1]'];
const loopbackHosts = new Set([...loopbackNames, '::1']);

/**
 * The spy listens on loopback, where a web page the user visits can reach it by DNS rebinding: its
 * own name resolving to 127.0.0.1. As the MCP specification asks of local servers, only the spy's
 * own address is accepted as Host (and any the user adds), whatever the server behind it checks.
 */
export function hostPolicy(listen: ListenAddress, allowHosts: readonly string[] = [], allowOrigins: readonly string[] = []): HostPolicy {
  const { port } = listen;
  const own = hostPort(listen.host, port).toLowerCase();
  const hosts = new Set([...loopbackNames.map((name) => `${name}:${port}`), own]);
  const names = new Set([...loopbackNames, own.slice(0, own.lastIndexOf(':'))]);
  for (const host of allowHosts) hosts.add(host.toLowerCase());
  const origins = new Set(allowOrigins.map((origin) => origin.toLowerCase().replace(/\/+$/, '')));
  return { hosts, names, origins };
}

function hostnameOf(host: string): string | undefined {
  try {
    return new URL(`http://${host}`).hostname;
  } catch {
    return undefined;
  }
}

function isLoopbackOrigin(origin: string): boolean {
  try {
    const url = new URL(origin);
    return (url.protocol === 'http:' || url.protocol === 'https:') && loopbackHosts.has(url.hostname);
  } catch {
    return false;
  }
}

/** Why a request must not be forwarded, or undefined when it may be. */
export function refusalOf(headers: IncomingHttpHeaders, policy: HostPolicy): string | undefined {
  const host = headers.host?.toLowerCase();
  if (host === undefined || host === '') return 'the request has no Host header';
  // The usual Host is the spy's own host:port, found without parsing it (this runs for every request).
  const hostname = policy.hosts.has(host) ? undefined : hostnameOf(host);
  const named = hostname === undefined ? policy.hosts.has(host) : policy.hosts.has(hostname) || (hostname === host && policy.names.has(host));
  if (!named) {
    return `Host ${host} is not the spy's own address (a DNS rebinding attempt?); allow it with --allow-host ${hostname ?? host}`;
  }
  const origin = headers.origin?.toLowerCase().replace(/\/+$/, '');
  if (origin !== undefined && !isLoopbackOrigin(origin) && !policy.origins.has(origin)) {
    return `Origin ${origin} is not a loopback origin (a web page's request?); allow it with --allow-origin ${origin}`;
  }
  return undefined;
}
