import { prepareMock } from '../mock/mock.js';
import { createMockHttpServer, listenMock } from '../mock/mock-http.js';
import { serveMockStdio } from '../mock/mock-stdio.js';
import type { ListenAddress } from '../transports/http/target.js';
import { sanitize } from '../render/sanitize.js';
import { listenFailure } from './listen-errors.js';
import { createCutReporter, createSkipReporter } from './recording-input.js';
import type { FaultOptions } from './fault-options.js';
import { faultPlanOf } from './fault-plan.js';

export interface MockCommandOptions extends FaultOptions {
  listen?: ListenAddress;
  ignore: string[];
  ignoreFile: boolean;
  session?: string;
  reuse?: boolean;
  onMiss: 'error' | 'close';
  speed: number;
  timeout: number;
  maxLine?: number;
}

/** `--listen 127.0.0.1:7000`, `--listen 7000` (127.0.0.1), `--listen [::1]:0`: the HTTP spy's own reading. */

/** `mcp-spy mock wire.jsonl [--listen host:port]`: a server that answers from the recording. */
export async function runMock(recording: string, options: MockCommandOptions): Promise<number> {
  const faults = await faultPlanOf(options, options.listen ? 'http' : 'stdio');
  let newEngine;
  const unread = createSkipReporter(recording);
  try {
    newEngine = await prepareMock({
      recording,
      ...(options.maxLine !== undefined ? { maxLine: options.maxLine } : {}),
      onUnread: unread.onSkip,
      onCut: createCutReporter(recording),
      ignore: options.ignore,
      ignoreFile: options.ignoreFile,
      ...(options.session !== undefined ? { session: options.session } : {}),
      reuse: options.reuse ?? false,
      onMiss: options.onMiss,
      speed: options.speed,
      timeoutMs: options.timeout,
    });
  } finally {
    unread.finish('');
  }
  // The mock's lines quote what the client sent and what was recorded: made safe to print.
  const warn = (line: string) => process.stderr.write(`${sanitize(line)}\n`);
  if (faults) warn(`mcp-spy mock: injecting faults: ${faults.rules.length} rule(s), --seed ${faults.seed}`);
  if (!options.listen) {
    const io = faults
      ? (await import('../faults/piped-faults.js')).pipeThroughFaults(faults, process.stdin, process.stdout, process.stderr)
      : { input: process.stdin, output: process.stdout };
    return serveMockStdio(newEngine(), { ...io, warn });
  }
  // The mock records nothing: what a rule did is not written anywhere, as over stdio.
  const hook = faults ? (await import('../faults/http-faults.js')).httpFaultHook(faults, () => {}) : undefined;
  const server = createMockHttpServer(newEngine, warn, hook);
  let url: string;
  try {
    url = await listenMock(server, options.listen.host, options.listen.port);
  } catch (error) {
    throw listenFailure(options.listen.host, options.listen.port, error);
  }
  warn(`mcp-spy mock: serving ${recording} at ${url}`);
  // For a script, as \`mcp-spy http\` does: the address on stdout, where nothing else is written.
  process.stdout.on('error', () => {});
  process.stdout.write(`mcp-spy mock: listening on ${url}\n`);
  await new Promise<void>((resolve) => {
    const stop = () => {
      server.close(() => resolve());
      server.closeAllConnections();
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  return 0;
}
