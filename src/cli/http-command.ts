import { startHttpObserver } from '../session/http-observer.js';
import { startHttpSession } from '../session/http-session.js';
import { onStopSignals } from '../session/signals.js';
import { startServerProcess, waitForPort } from '../transports/server-process.js';
import { parseListen, parseTarget } from '../transports/http/target.js';
import { SpyError, exitCodes } from './errors.js';
import { clientTimeoutsOf, type TimeoutOptions } from './http-options.js';
import { listenFailure } from './listen-errors.js';
import { openOutputs, type SpyOptions } from './spy-command.js';
import { version } from './version.js';

export interface HttpOptions extends SpyOptions, TimeoutOptions {
  target: string;
  listen: string;
  redactHeader: string[];
  redact: boolean;
  allowHost: string[];
  allowOrigin: string[];
}

/** Resolves when one of the stop signals arrives, with a way to stop listening for them. */
function stopRequested() {
  let onSignal = () => {};
  const signalled = new Promise<void>((resolve) => (onSignal = resolve));
  return { signalled, dispose: onStopSignals(() => onSignal()) };
}

function checkOptions(options: HttpOptions) {
  const target = parseTarget(options.target);
  if (!target.ok) throw new SpyError(`bad --target ${JSON.stringify(options.target)}: ${target.reason}; expected a URL such as http://127.0.0.1:3000/mcp`);
  const listen = parseListen(options.listen);
  if (!listen.ok) throw new SpyError(`bad --listen ${JSON.stringify(options.listen)}: ${listen.reason}`);
  return { target: target.url, listen: listen.address, timeouts: clientTimeoutsOf(options) };
}

/** The HTTP spy: `mcp-spy http --target URL [--listen HOST:PORT] [-- server command]`. */
export async function runHttpSpy(server: string[] | undefined, options: HttpOptions): Promise<number> {
  const { target, listen, timeouts } = checkOptions(options);
  const behind = { address: target.hostname.replace(/^\[|\]$/g, ''), port: Number(target.port || (target.protocol === 'https:' ? 443 : 80)) };
  const { outputs, stderrOut, warn } = openOutputs(options, { transport: 'http', server: behind });
  const observer = startHttpObserver({ ...outputs, redactHeaders: options.redactHeader, redact: options.redact, mcpPath: target.pathname }, { warn });
  const finish = async (code: number) => {
    await observer.finish(options.drainTimeout);
    await stderrOut.flush();
    return code;
  };
  let spy: Awaited<ReturnType<typeof startHttpSession>>;
  try {
    spy = await startHttpSession({ target, listen, timeouts, observer, version, allowHosts: options.allowHost, allowOrigins: options.allowOrigin });
  } catch (error) {
    await finish(exitCodes.unavailable);
    throw listenFailure(listen.host, listen.port, error);
  }

  const stop = stopRequested();
  const child = server && server.length > 0 ? startServerProcess(server[0]!, server.slice(1)) : undefined;
  let over = false;
  void Promise.race([child?.outcome ?? new Promise(() => {}), stop.signalled]).then(() => (over = true));
  if (child) {
    observer.event('spawn', { transport: 'http', command: server, pid: child.pid, cwd: process.cwd(), spy: version });
    const up = await waitForPort(behind.address, behind.port, 30_000, Promise.race([child.outcome, stop.signalled]));
    if (!up && !over) warn(`the server does not accept connections at ${target.host} yet; forwarding anyway`);
  }
  if (!over) {
    process.stdout.on('error', () => {});
    process.stdout.write(`mcp-spy: listening on ${spy.url}, forwarding to ${target.href}\n`);
  }

  const ended = await Promise.race([stop.signalled.then(() => undefined), child ? child.outcome : new Promise<never>(() => {})]);
  stop.dispose();
  // From here on a stop signal (a second Ctrl-C) cuts the finishing short; it never kills the spy.
  const stopHurrying = onStopSignals(() => observer.hurry());
  await spy.close();
  let exitCode: number = exitCodes.ok;
  if (child) {
    if (!ended) child.stop();
    const outcome = await child.outcome;
    if (outcome.started) observer.event('exit', { code: outcome.code, signal: outcome.signal });
    else {
      observer.event('exit', { code: null, signal: null, reason: `${server![0]}: ${outcome.message}` });
      warn(`cannot start ${server![0]}: ${outcome.message}`);
    }
    // The server ending on its own ends the spy with its status; our stopping it is no failure.
    if (ended) exitCode = outcome.exitCode;
  }
  await finish(exitCode);
  stopHurrying();
  return exitCode;
}
