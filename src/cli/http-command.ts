import { ListenFailed, runHttpSpy, targetAddressOf } from '../spy/http-spy.js';
import { parseListen, parseTarget } from '../transports/http/target.js';
import { SpyError, exitCodes } from './errors.js';
import { clientTimeoutsOf, type TimeoutOptions } from './http-options.js';
import { checkMetricsAddress, listenFailure } from './listen-errors.js';
import { openOutputs, sessionLabel, type SpyOptions } from './spy-command.js';
import { faultPlanOf } from './fault-plan.js';
import { interceptPlanOf } from './intercept-options.js';
import { version } from './version.js';

export interface HttpOptions extends SpyOptions, TimeoutOptions {
  target: string;
  listen: string;
  redactHeader: string[];
  redact: boolean;
  allowHost: string[];
  allowOrigin: string[];
}

function checkOptions(options: HttpOptions) {
  const target = parseTarget(options.target);
  if (!target.ok) throw new SpyError(`bad --target ${JSON.stringify(options.target)}: ${target.reason}; expected a URL such as http://127.0.0.1:3000/mcp`);
  const listen = parseListen(options.listen);
  if (!listen.ok) throw new SpyError(`bad --listen ${JSON.stringify(options.listen)}: ${listen.reason}`);
  return { target: target.url, listen: listen.address, timeouts: clientTimeoutsOf(options) };
}

/** The HTTP spy: `mcp-spy http --target URL [--listen HOST:PORT] [-- server command]`. */
export async function runHttpCommand(server: string[] | undefined, options: HttpOptions): Promise<number> {
  const { target, listen, timeouts } = checkOptions(options);
  const faults = await faultPlanOf(options, 'http');
  const { outputs, stderrOut, warn } = openOutputs(options, { transport: 'http', server: targetAddressOf(target) });
  if (faults) warn(`injecting faults: ${faults.rules.length} rule(s), --seed ${faults.seed}`);
  await checkMetricsAddress(outputs.export?.metrics);
  const intercept = await interceptPlanOf(options, outputs.recordPath, { transport: 'http', target: target.href, ...sessionLabel(options) });
  try {
    const serverExit = await runHttpSpy({
      target,
      listen,
      timeouts,
      allowHosts: options.allowHost,
      allowOrigins: options.allowOrigin,
      observer: { ...outputs, redactHeaders: options.redactHeader, redact: options.redact, mcpPath: target.pathname },
      server,
      stderrOut,
      warn,
      version,
      drainTimeoutMs: options.drainTimeout,
      lossless: options.lossless === true,
      ...(sessionLabel(options) ? { label: sessionLabel(options)! } : {}),
      ...(faults ? { faults } : {}),
      ...(intercept ? { intercept } : {}),
    });
    return serverExit ?? exitCodes.ok;
  } catch (error) {
    if (error instanceof ListenFailed) throw listenFailure(listen.host, listen.port, error.error);
    throw error;
  }
}
