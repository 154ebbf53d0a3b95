import { InvalidArgumentError, Option, type Command } from 'commander';
import { defaultClientTimeouts, type ClientTimeouts } from '../transports/http/client-timeouts.js';
import { readDuration } from './options.js';

/** Node's timers take no more than about 24.8 days; a day is already far more than any client needs. */
const longestMs = 24 * 3_600_000;

/** A client timeout in whole ms, at most a day; 0 only where it means "no limit". */
function timeoutParser(zeroIsNoLimit: boolean) {
  return (value: string): number => {
    const ms = Math.round(readDuration(value));
    if (ms > longestMs) throw new InvalidArgumentError('the timeout must be at most 24h');
    if (ms === 0 && !zeroIsNoLimit) throw new InvalidArgumentError('the timeout must be above 0');
    return ms;
  };
}

/** The client timeouts as options, one a field; none of them ever applies to a response. */
const timeoutOptions = {
  headersMs: {
    flag: '--headers-timeout <duration>',
    help: 'close a connection whose request head has not all arrived this long after it opened (or the request began)',
    zeroIsNoLimit: false,
  },
  requestMs: {
    flag: '--request-timeout <duration>',
    help: 'close a connection whose request (head and body) has not all arrived this long after it began; 0: no limit',
    zeroIsNoLimit: true,
  },
  keepAliveMs: {
    flag: '--keep-alive-timeout <duration>',
    help: 'close a connection this long after its last response if no new request begins',
    zeroIsNoLimit: false,
  },
} satisfies Record<keyof ClientTimeouts, { flag: string; help: string; zeroIsNoLimit: boolean }>;

/** Adds --headers-timeout, --request-timeout and --keep-alive-timeout to a command. */
export function withTimeoutOptions(command: Command): Command {
  for (const field of Object.keys(timeoutOptions) as (keyof ClientTimeouts)[]) {
    const { flag, help, zeroIsNoLimit } = timeoutOptions[field];
    const ms = defaultClientTimeouts[field];
    command.addOption(new Option(flag, help).argParser(timeoutParser(zeroIsNoLimit)).default(ms, `${ms / 1000}s`));
  }
  return command;
}

/** The parsed options, as commander names them. */
export interface TimeoutOptions {
  headersTimeout: number;
  requestTimeout: number;
  keepAliveTimeout: number;
}

/** The timeouts from the parsed options (each has its default). */
export function clientTimeoutsOf(options: TimeoutOptions): ClientTimeouts {
  return { headersMs: options.headersTimeout, requestMs: options.requestTimeout, keepAliveMs: options.keepAliveTimeout };
}

/** `--allow-host`, repeatable: a host name (any port) or host:port, as a Host header carries it. */
export function collectAllowHost(value: string, previous: string[]): string[] {
  if (!/^(?:\[[0-9a-fA-F:.]+\]|[^\s:/[\]@]+)(?::\d{1,5})?$/.test(value))
    throw new InvalidArgumentError('expected a host name or host:port, as in a Host header (e.g. spy.internal or spy.internal:7000)');
  return [...previous, value];
}

/** `--allow-origin`, repeatable: an origin as a browser sends it, scheme://host[:port]. */
export function collectAllowOrigin(value: string, previous: string[]): string[] {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (url === undefined || url.origin === 'null' || url.origin !== value.toLowerCase().replace(/\/$/, ''))
    throw new InvalidArgumentError('expected an origin such as https://app.example.com (scheme, host and port only)');
  return [...previous, url.origin];
}
