import { startHttpObserver, type HttpObserverHandle } from '../observer/http/http-handle.js';
import type { HttpObserverConfig } from '../observer/http/http-messages.js';
import { writeLastWords } from '../sinks/last-words.js';
import type { StderrOut } from '../sinks/stderr-out.js';
import { startHttpProxy, type ClientTimeouts } from '../transports/http-proxy.js';
import { startServerProcess, waitForPort } from '../transports/server-process.js';
import type { ListenAddress } from '../transports/http/target.js';
import { onStopSignals, stopRequested } from './signals.js';
import type { FaultRule } from '../faults/rule-types.js';
import type { InterceptPlan } from '../faults/intercept-hook.js';
import { sanitize } from '../render/sanitize.js';

export interface HttpSpyOptions {
  target: URL;
  listen: ListenAddress;
  /** How long a client may take to send a request, or idle between requests (default: Node's). */
  timeouts?: ClientTimeouts;
  /** Host and Origin values accepted beyond the spy's own and loopback ones. */
  allowHosts?: readonly string[];
  allowOrigins?: readonly string[];
  /** Where the exchanges go to be recorded (on the observer thread). */
  observer: HttpObserverConfig;
  /** A server command to run beside the spy (`-- command args`), if any. */
  server?: string[];
  stderrOut: StderrOut;
  warn: (message: string) => void;
  version: string;
  /** Once the spy has stopped, how long finishing the record may take. */
  drainTimeoutMs: number;
  /** --lossless: a body is read no faster than the record takes it; finishing the record is not cut short by `drainTimeoutMs`. */
  lossless?: boolean;
  /** Who the run is, when a client's config points at it (wrap --http): on its first http entry and spawn entry. */
  label?: { client: string; name: string };
  /** Fault rules (--fault): only then does the proxy hand exchanges to the fault hook. */
  faults?: { rules: FaultRule[]; seed: number };
  /** --intercept: matching POST bodies are held until released from the console (or at their bound). */
  intercept?: InterceptPlan;
}

/** The spy cannot listen where asked: `error` is why (EADDRINUSE, EACCES ...). The record is finished. */
export class ListenFailed extends Error {
  constructor(readonly error: unknown) {
    super(error instanceof Error ? error.message : String(error));
    this.name = 'ListenFailed';
  }
}

/** The address and port the target listens on, as the server command must open them. */
export function targetAddressOf(target: URL): { address: string; port: number } {
  return { address: target.hostname.replace(/^\[|\]$/g, ''), port: Number(target.port || (target.protocol === 'https:' ? 443 : 80)) };
}

/**
 * Starts the reverse proxy, its exchanges observed on another thread into the record, one session
 * per Mcp-Session-Id, legacy endpoint, or stateless exchange. Rejects when it cannot listen.
 */
async function startObservedProxy(options: HttpSpyOptions, observer: HttpObserverHandle) {
  const { target, listen, timeouts, allowHosts, allowOrigins } = options;
  // Loaded only with fault rules: without them the proxy forwards as it always has.
  const faults = options.faults
    ? { faults: (await import('../faults/http-faults.js')).httpFaultHook(options.faults, (fields) => observer.event('fault', fields)) }
    : {};
  // --intercept is refused beside fault rules (see the command): one hook at most sees the exchanges.
  const intercept = options.intercept ? await interceptHook(options.intercept, observer, options.stderrOut) : undefined;
  let toldRefusal = false;
  const refused = (peer: string, why: string) => {
    observer.event('http', { summary: `connection from ${peer} refused: ${why}`, reason: why });
    if (toldRefusal) return;
    toldRefusal = true;
    options.warn(`refusing connections: ${why}; their clients see the connection reset (each is in the record); raise the limit to let more in`);
  };
  const proxy = await startHttpProxy({
    target,
    listen,
    timeouts,
    allowHosts,
    allowOrigins,
    tapExchange: observer.observe,
    refused,
    settled: observer.started,
    ...faults,
    ...(intercept ? { faults: intercept.hook } : {}),
  });
  return {
    url: proxy.url,
    /** Says where the spy listens, on stdout and in the record (the live view's line): once a client may come. */
    announce() {
      observer.event('http', {
        summary: `listening on ${proxy.url}, forwarding to ${target.href}`,
        transport: 'http',
        listen: proxy.url,
        target: target.href,
        spy: options.version,
        ...options.label,
      });
      process.stdout.on('error', () => {});
      process.stdout.write(`mcp-spy: listening on ${proxy.url}, forwarding to ${target.href}\n`);
    },
    /** Stops the proxy; every open session's pending requests are reported as unanswered. */
    async close() {
      intercept?.close();
      await proxy.close();
      observer.stopped();
    },
  };
}

/**
 * The HTTP spy: forwards here, observes on another thread, runs the server command beside it if
 * given; runs until a stop signal or the server's end. Resolves with the server's exit status when
 * the server ended on its own, undefined when the spy was stopped. Rejects with ListenFailed.
 */
export async function runHttpSpy(options: HttpSpyOptions): Promise<number | undefined> {
  const { target, server, warn, version } = options;
  const observer = startHttpObserver(options.observer, { warn, lossless: options.lossless === true });
  const finish = async () => {
    const finished = await observer.finish(options.lossless ? Infinity : options.drainTimeoutMs);
    if (!finished.closed) await writeLastWords(options.observer, finished, undefined, warn);
    await options.stderrOut.flush();
  };
  let spy: Awaited<ReturnType<typeof startObservedProxy>>;
  try {
    spy = await startObservedProxy(options, observer);
  } catch (error) {
    await finish();
    throw new ListenFailed(error);
  }

  const stop = stopRequested();
  const child = server && server.length > 0 ? startServerProcess(server[0]!, server.slice(1)) : undefined;
  let over = false;
  void Promise.race([child?.outcome ?? new Promise(() => {}), stop.signalled]).then(() => (over = true));
  // A command that could not be started has no pid: its one line comes with its exit below.
  if (child?.pid === undefined && child) over = true;
  else if (child) {
    const label = options.label ?? {};
    observer.event('spawn', { transport: 'http', command: server, pid: child.pid, cwd: process.cwd(), spy: version, ...label });
    const behind = targetAddressOf(target);
    // A server slow to listen is said early: a spy that waits in silence looks hung.
    const slow = setTimeout(() => warn(`waiting for the server to accept connections at ${target.host} (up to 30 s)`), 5_000);
    const up = await waitForPort(behind.address, behind.port, 30_000, Promise.race([child.outcome, stop.signalled]));
    clearTimeout(slow);
    if (!up && !over) warn(`the server does not accept connections at ${target.host} yet; forwarding anyway`);
  }
  // Announced only once the server answers (a client started on this line must not meet a 502) and
  // the observer runs (the spy knows then how many connections its open files allow).
  await observer.started;
  if (!over) spy.announce();

  const ended = await Promise.race([stop.signalled.then(() => undefined), child ? child.outcome : new Promise<never>(() => {})]);
  stop.dispose();
  // From here on a stop signal (a second Ctrl-C) cuts the finishing short; it never kills the spy.
  const stopHurrying = onStopSignals((signal) => observer.hurry(signal));
  await spy.close();
  let serverExit: number | undefined;
  if (child) {
    if (!ended) child.stop();
    const outcome = await child.outcome;
    if (outcome.started) observer.event('exit', { code: outcome.code, signal: outcome.signal });
    else {
      observer.event('exit', { code: null, signal: null, reason: `${server![0]}: ${outcome.message}` });
      warn(`cannot start ${server![0]}: ${outcome.message}`);
    }
    // The server ending on its own ends the spy with its status; our stopping it is no failure.
    if (ended) serverExit = outcome.exitCode;
  }
  await finish();
  stopHurrying();
  return serverExit;
}

/** The hook of --intercept on HTTP: its holds and control socket, loaded only then. */
async function interceptHook(plan: InterceptPlan, observer: HttpObserverHandle, stderrOut: StderrOut) {
  const { startIntercept } = await import('../faults/intercept-hook.js');
  const { httpInterceptHook } = await import('../faults/intercept-http.js');
  // Never dropped, as the live view's lines may be: a held frame's line says how to let it go.
  const say = (line: string) => void stderrOut.pass(Buffer.from(`mcp-spy: ${sanitize(line)}\n`));
  const intercept = await startIntercept(plan, (fields) => observer.event('intercept', fields), say);
  return {
    hook: httpInterceptHook(intercept.holds),
    close: () => {
      // What is still held goes on as it was before the proxy stops.
      intercept.holds.releaseAll();
      intercept.close();
    },
  };
}
