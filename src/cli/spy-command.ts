import type { CaptureMode } from '../observer/stdio/stdio-messages.js';
import { checkNamedPath, resolveOutputPaths, type OutputPaths } from '../record/paths.js';
import { sessionRecordPath } from '../record/sessions-dir.js';
import type { ObserverOutputs } from '../observer/observer-outputs.js';
import { createStderrOut, warnOnce } from '../sinks/stderr-out.js';
import { runStdioSpy } from '../spy/stdio-spy.js';
import type { SessionPlace } from '../export/mcp-attributes.js';
import { takeEarlySignal } from './early-signals.js';
import { exportConfigOf, type ExportOptions } from './export-options.js';
import { SpyError } from './errors.js';
import { checkMetricsAddress } from './listen-errors.js';
import { loadPins } from './baseline-option.js';
import { wantsColor } from './options.js';
import type { FaultOptions } from './fault-options.js';
import { faultPlanOf } from './fault-plan.js';
import { interceptPlanOf, type InterceptCommandOptions } from './intercept-options.js';
import { version } from './version.js';

export interface SpyOptions extends ExportOptions, FaultOptions, InterceptCommandOptions {
  record: string | boolean;
  log: string | boolean;
  quiet?: boolean;
  color?: boolean;
  maxFrame: number;
  /** Once the server has exited, how long finishing the record may take, in ms. */
  drainTimeout: number;
  /** --capture (stdio): when the recorder captures whole lines rather than analyse them. */
  capture?: CaptureMode;
  /** --lossless: the traffic slows to the recorder's pace rather than leave gaps in the record. */
  lossless?: boolean;
  /** --redact: JSONPaths masked in every frame before it is written. */
  redactPath: string[];
  /** --baseline: pinned tools; a listed tool that differs is noted on its frame. */
  baseline?: string;
  /** --client, --name: a run started from a client's config (by wrap); its record goes to the sessions directory. */
  client?: string;
  name?: string;
  /** false with --no-default-redact: members with a secret's name are recorded as sent. */
  defaultRedact?: boolean;
  /** The HTTP spy's --no-redact (false): every default mask off, frames' secret names too. */
  redact?: boolean;
  /** --allow-readable: a named --record or --log that others can read takes the traffic all the same. */
  allowReadable?: boolean;
}

/** The label of a run started from a client's config, when it has one: either option makes one. */
export function sessionLabel(options: Pick<SpyOptions, 'client' | 'name'>): { client: string; name: string } | undefined {
  if (options.client === undefined && options.name === undefined) return undefined;
  return { client: options.client ?? 'cli', name: options.name ?? 'server' };
}

/**
 * A labelled run writes its record to the sessions directory, one file per run, and no wire.log by
 * default (the live view goes to the client's MCP log; `mcp-spy view` renders the record). A --record
 * or --log the user names is used as given.
 */
function sessionOutputs(options: Pick<SpyOptions, 'record' | 'log' | 'client' | 'name'>, label: { client: string; name: string }): OutputPaths {
  const choice = { record: choiceOf(options.record), log: choiceOf(options.log) ?? false };
  const named = resolveOutputPaths(choice.record === undefined ? { ...choice, record: false } : choice, process.cwd(), process.env);
  if (choice.record !== undefined) return named;
  const place = sessionRecordPath(process.env, { client: label.client, server: label.name, started: new Date(), pid: process.pid });
  if ('unavailable' in place) return { ...named, unavailable: place.unavailable };
  return { ...named, record: place.path, recordNamed: false };
}

/** `false` from commander's --no-x, a string from --x FILE, `true` when neither was given. */
function choiceOf(value: string | boolean): string | false | undefined {
  return value === true ? undefined : value;
}

/** Checks the output paths before the server starts, so bad use costs nothing. */
export function prepareOutputs(options: Pick<SpyOptions, 'record' | 'log' | 'client' | 'name' | 'allowReadable'>): OutputPaths {
  const choice = { record: choiceOf(options.record), log: choiceOf(options.log) };
  for (const [name, path] of Object.entries(choice)) {
    if (typeof path !== 'string') continue;
    // An empty name (an unset variable in a client's config) is a mistake, not a wish for no file.
    if (path === '') throw new SpyError(`--${name} needs a file name (--no-${name} writes none)`);
    const problem = checkNamedPath(path, options.allowReadable === true);
    if (problem) throw new SpyError(`cannot write ${name} ${path}: ${problem}`);
  }
  const label = sessionLabel(options);
  return label ? sessionOutputs(options, label) : resolveOutputPaths(choice, process.cwd(), process.env);
}

/**
 * The outputs as the options ask (written on the observer thread), and a stderr on this thread
 * where problems are said once each.
 */
export function openOutputs(options: SpyOptions, place: SessionPlace = { transport: 'stdio' }) {
  const exported = exportConfigOf(options, place);
  const paths = prepareOutputs(options);
  const stderrOut = createStderrOut();
  const color = wantsColor(options.color, process.env, process.stderr.isTTY === true);
  const warn = warnOnce(stderrOut);
  if (paths.movedTo) warn(`writing the record and log to ${paths.movedTo.dir} (${paths.movedTo.reason})`);
  if (paths.unavailable) warn(`the record and log are not written (${paths.unavailable}); the server runs all the same`);
  const outputs: ObserverOutputs = {
    recordPath: paths.record,
    logPath: paths.log,
    recordNamed: paths.recordNamed,
    logNamed: paths.logNamed,
    allowReadable: options.allowReadable === true,
    live: !options.quiet,
    color,
    // The live view fits a terminal's width; into a file or a client's log it keeps its fixed width.
    liveWidth: process.stderr.isTTY ? process.stderr.columns : undefined,
    maxFrame: options.maxFrame,
    redactPaths: options.redactPath,
    redactNames: options.defaultRedact !== false && options.redact !== false,
  };
  const pins = loadPins(options.baseline, warn);
  if (pins) outputs.pins = pins;
  if (exported) outputs.export = exported;
  return { outputs, stderrOut, warn };
}

/** The stdio spy: `mcp-spy [options] -- <command> [args...]`. Resolves with the exit status to use. */
export async function runSpy(server: string[] | undefined, options: SpyOptions): Promise<number> {
  if (!server || server.length === 0) {
    throw new SpyError('no server command: use mcp-spy [options] -- <command> [args...] (see mcp-spy --help)');
  }
  const faults = await faultPlanOf(options, 'stdio');
  const { outputs, stderrOut, warn } = openOutputs(options);
  await checkMetricsAddress(outputs.export?.metrics);
  const [command, ...args] = server as [string, ...string[]];
  const intercept = await interceptPlanOf(options, outputs.recordPath, { transport: 'stdio', command: server, ...sessionLabel(options) });
  if (faults) warn(`injecting faults: ${faults.rules.length} rule(s), --seed ${faults.seed}`);
  const outcome = await runStdioSpy({
    command,
    args,
    observer: outputs,
    stderrOut,
    warn,
    version,
    drainTimeoutMs: options.drainTimeout,
    lossless: options.lossless === true,
    ...(options.capture !== undefined ? { capture: options.capture } : {}),
    earlySignal: takeEarlySignal,
    ...(faults ? { faults } : {}),
    ...(intercept ? { intercept } : {}),
    ...(sessionLabel(options) ? { label: sessionLabel(options)! } : {}),
  });
  if (!outcome.started) {
    warn(`cannot start ${command}: ${outcome.why}`);
  }
  await stderrOut.flush();
  return outcome.exitCode;
}
