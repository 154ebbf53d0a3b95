import { captureModes } from '../observer/stdio/stdio-messages.js';
import { Command, InvalidArgumentError, Option } from 'commander';
import { SpyError } from './errors.js';
import { listOption } from '../review/filters.js';
import { statsFormats } from '../review/stats-format.js';
import { viewFormats } from '../review/view.js';
import { checkFormats, collectMaxDuration, collectRule } from './check-options.js';
import { withExportOptions } from './export-options.js';
import { collectAllowHost, collectAllowOrigin, withTimeoutOptions } from './http-options.js';
import { checkJsonPath } from '../wire/redact/json-path.js';
import { defaultMaxFrame, defaultMaxLine, frameLimitBounds, lineLimitBounds } from '../wire/framing/limits.js';
import { parseCount, parseListen, sizeParser } from './options.js';
import { reportHelp, withReportOptions } from './report-options.js';
import { collect, parseDuration, parseSpeed, replayFormatNames } from './replay-options.js';
import { defaultHoldMs, defaultMaxHeld, parseMaxHeld } from './intercept-options.js';
import { version } from './version.js';
import { checkExamples, examples, httpExamples, mockHelp, replayHelp, uiHelp, viewExamples } from './help-texts.js';
import { addDriftCommands } from './drift-program.js';
import { addClientCommands } from './clients-program.js';

/** Context every command may need: the server command line given after `--`. */
export interface ProgramContext {
  server: string[] | undefined;
  setExitCode: (code: number) => void;
}

/** The commander program: a thin shell over the library; each command lives in its own file. */
export function buildProgram(context: ProgramContext): Command {
  const program = new Command('mcp-spy')
    .description('A wire spy for the Model Context Protocol: passes every byte through and records each frame.')
    .usage('[options] -- <command> [args...]\n       mcp-spy <subcommand> [options]')
    .version(version, '-V, --version')
    .helpCommand('help [command]', 'show help for a command, as --help does')
    .enablePositionalOptions();
  withSpyOptions(program)
    .addOption(
      new Option(
        '--capture <when>',
        'when the recorder records whole lines unanalysed (readers analyse them) rather than analyse each frame: pressed (when it falls far behind the traffic or runs out of time to finish: no gap), always, never (what it misses becomes a gap)',
      )
        .choices(captureModes)
        .default('pressed'),
    )
    .addHelpText('after', examples)
    .allowExcessArguments(true)
    .action(async (options, command: Command) => {
      if (command.args.length > 0) {
        throw new SpyError(`unknown command '${command.args[0]}'; to spy on a server, put its command after --: mcp-spy -- ${command.args.join(' ')}`);
      }
      context.setExitCode(await (await import('./spy-command.js')).runSpy(context.server, options));
    });

  program
    .command('demo')
    .description('run a real MCP client against a bundled server through the spy, and show the record')
    .option('--dir <dir>', 'where to write wire.jsonl and wire.log (default: a new temporary directory)')
    .action(async (options) => {
      // Loaded on use: the demo brings a whole SDK client, check the SDK's schemas.
      const { runDemo } = await import('./demo-command.js');
      context.setExitCode(await runDemo(options));
    });

  program
    .command('view')
    .description('show a recording (a record, or a plain "-> {json}" / "<- {json}" capture), filtered')
    .argument('<files...>', 'the records (wire.jsonl) or captures, one after the other; - for standard input')
    .option(
      '--kind <kinds>',
      'only these kinds, comma-separated, as the record or the log names them (request, notify, tool-error, proto-error, invalid, stderr, ...)',
      listOption,
    )
    .option('--dir <dir>', 'only one direction: c2s or s2c')
    .option('--method <methods>', "only these methods (a response carries its request's method)", listOption)
    .option('--tool <tools>', 'only calls of these tools', listOption)
    .option('--id <ids>', 'only these request ids, with their responses, progress and cancellation', listOption)
    .option('--session <sessions>', 'only these sessions', listOption)
    .option('--since <time>', 'from this time on, UTC (14:05, 14:05:30.250Z, or a full ISO date)')
    .option('--until <time>', 'up to this time, UTC')
    .option('--local', "times (--since, --until, the filter's time, the lines shown) in this machine's time zone, not UTC")
    .option('--text <text>', 'only frames whose raw text contains this (case-insensitive)')
    .option('--filter <expression>', 'a filter expression, e.g. \'tool = "search" and latency > 500\' (see README)')
    .addOption(new Option('--format <format>', 'output format').choices(viewFormats).default('text'))
    .option('--full', 'show each frame pretty-printed under its line')
    .option('-f, --follow', 'keep reading as the record grows (a session being recorded; waits for it to exist), until Ctrl-C')
    .option('-n, --lines <count>', 'start at the last N entries selected, as tail -n', parseCount)
    .option('--strict', 'a line that cannot be read is an error instead of being skipped')
    .option('--no-color', 'no colour (NO_COLOR and FORCE_COLOR are honoured too)')
    .addOption(lineLimitOption())
    .addHelpText('after', viewExamples)
    .action(async (files: string[], options) => {
      context.setExitCode(await (await import('./view-command.js')).runView(files, options));
    });

  program
    .command('ui')
    .description('a live terminal console: every session as it happens, frames to browse, filter and open')
    .argument('[paths...]', 'records and directories of records (default: the sessions directory, or MCP_SPY_DIR)')
    .option('--filter <expression>', 'show only frames that pass this filter expression (the view filter language; / changes it)')
    .option('--no-color', 'no colour (NO_COLOR and FORCE_COLOR are honoured too)')
    .addHelpText('after', uiHelp)
    .action(async (paths: string[], options) => {
      // Loaded on use: the console brings Ink and React, which no other command needs.
      const { runUi } = await import('./ui-command.js');
      context.setExitCode(await runUi(paths, options));
    });

  program
    .command('stats')
    .description('counts, errors and latency per method and tool, unanswered requests, sessions, peers and capabilities')
    .argument('<files...>', 'the records (wire.jsonl) or captures: stats of each')
    .addOption(new Option('--format <format>', 'output format (markdown to paste in a pull request)').choices(statsFormats).default('text'))
    .option('--strict', 'a line that cannot be read is an error instead of being skipped')
    .addOption(lineLimitOption())
    .action(async (files: string[], options) => {
      context.setExitCode(await (await import('./stats-command.js')).runStats(files, options));
    });

  program
    .command('check')
    .description('protocol lint of a recording; exit 0 clean, 1 findings at error level, 2 bad use')
    .argument('[files...]', 'the records (wire.jsonl) or captures: each gets its verdict')
    .addOption(new Option('--format <format>', 'output format (junit for CI test reporters, sarif for code scanning)').choices(checkFormats).default('text'))
    .option('--rule <ID=level>', 'set a rule to off, warn or error (repeatable)', collectRule)
    .option('--list-rules', 'list the rules with their levels and stop')
    .option('--baseline <file>', 'also fail on tools that differ from their pins in this baseline (mcp-spy baseline)')
    .option('--expect-tool <name>', 'fail unless the server lists this tool (* is a wildcard; repeatable)', collect, [])
    .option('--forbid-tool <name>', 'fail if the server lists this tool or it is called (* is a wildcard; repeatable)', collect, [])
    .option(
      '--max-duration <method=duration>',
      'fail on an answer to this method (tools/call, resources/*) or tool (tool:search) slower than this, e.g. tools/call=2s (repeatable)',
      collectMaxDuration,
      [],
    )
    .option('--strict', 'a line that cannot be read is an error instead of being skipped')
    .addOption(lineLimitOption())
    .addHelpText('after', checkExamples)
    .action(async (files: string[], options) => {
      const { runCheck } = await import('./check-command.js');
      context.setExitCode(await runCheck(files, options));
    });

  withReportOptions(
    program
      .command('report')
      .description('a single-file HTML report of a recording (or two side by side): sequence diagram, waterfall, latency, findings, frames')
      .argument('<files...>', 'the record (wire.jsonl) or a capture; two to compare'),
  )
    .addOption(lineLimitOption())
    .addHelpText('after', reportHelp)
    .action(async (files: string[], options) => {
      const { runReport } = await import('./report-command.js');
      context.setExitCode(await runReport(files, options));
    });

  program
    .command('replay')
    .description('re-drive a real server with a recording and compare its answers with the recorded ones')
    .argument('<record>', 'the recording (wire.jsonl)')
    .usage('<record> [options] -- <command> [args...]   or   <record> --target URL')
    .option('--target <url>', 'replay against a Streamable HTTP server instead of starting one')
    .option('--ignore <path>', 'leave this JSONPath out of comparisons, e.g. result.content[*].text or $..timestamp (repeatable)', collect, [])
    .option('--no-ignore-file', 'do not read <record>.ignore')
    .option(
      '--map <path>',
      'also map the values the server hands out here (JSONPath, e.g. result.sessionHandle) in later client frames (repeatable)',
      collect,
      [],
    )
    .addOption(
      new Option('--speed <speed>', '0: send each frame once what the client waited for came; 1: also keep the recorded gaps').argParser(parseSpeed).default(0),
    )
    .addOption(new Option('--timeout <duration>', 'how long to wait for each response').argParser(parseDuration).default(10_000, '10s'))
    .option('--concurrency', 'send client frames as recorded, without waiting for earlier responses')
    .option('--notifications', "compare the server's notifications too")
    .option('--session <id>', 'replay only this session of the recording')
    .option('--update', 'accept the new behaviour: rewrite the server frames that changed in the recording')
    .addOption(new Option('--format <format>', 'report format').choices(replayFormatNames).default('text'))
    .addOption(lineLimitOption())
    .addHelpText('after', replayHelp)
    .action(async (record: string, options) => {
      context.setExitCode(await (await import('./replay-command.js')).runReplay(record, context.server, options));
    });

  program
    .command('mock')
    .description('act as the recorded server, over stdio or Streamable HTTP, answering from the recording')
    .argument('<record>', 'the recording (wire.jsonl)')
    .option('--listen <host:port>', 'serve Streamable HTTP here instead of stdio (port 0: a free one)', parseListen)
    .option('--ignore <path>', 'leave this JSONPath out of matching params, e.g. params.arguments.seed (repeatable)', collect, [])
    .option('--no-ignore-file', 'do not read <record>.ignore')
    .option('--session <id>', 'answer only from this session of the recording')
    .option('--reuse', 'answer a request again once its recorded answers were used')
    .addOption(new Option('--on-miss <policy>', 'on a request with no recorded answer').choices(['error', 'close']).default('error'))
    .addOption(new Option('--speed <speed>', '0: answer at once; 1: at the recorded timing').argParser(parseSpeed).default(0))
    .addOption(
      new Option('--timeout <duration>', "how long to wait for the client's answer to a recorded server request")
        .argParser(parseDuration)
        .default(10_000, '10s'),
    )
    .addOption(lineLimitOption())
    .option('--fault <rule>', "misbehave on cue, as the spy's --fault does (stdio; repeatable)", collect, [])
    .option('--faults <file>', 'fault rules from a YAML or JSON file')
    .option('--seed <n>', 'the seed for rules with p=')
    .addHelpText('after', mockHelp)
    .action(async (record: string, options) => {
      context.setExitCode(await (await import('./mock-command.js')).runMock(record, options));
    });

  addDriftCommands(program, context);
  addClientCommands(program, context);
  const exporting = program.command('export').description('send or write a recording in the formats other tools speak (OTLP, HAR)');
  exporting
    .command('otlp')
    .description("send a recording's spans and metrics to an OpenTelemetry collector over OTLP/HTTP")
    .argument('<file>', 'the record (wire.jsonl) or a capture')
    .option('--endpoint <url>', 'the collector, e.g. http://127.0.0.1:4318 (default: OTEL_EXPORTER_OTLP_ENDPOINT)')
    .option('--otlp-content', 'put tool arguments and results on the spans')
    .option('--strict', 'a line that cannot be read is an error instead of being skipped')
    .addOption(lineLimitOption())
    .action(async (file: string, options) => {
      const { runExportOtlp } = await import('./export-command.js');
      context.setExitCode(await runExportOtlp(file, options));
    });
  exporting
    .command('har')
    .description('write a recording as HAR 1.2 (HTTP exchanges as entries, a stdio session as WebSocket-style messages)')
    .argument('<file>', 'the record (wire.jsonl) or a capture')
    .option('-o, --output <file>', 'where to write the HAR (default: standard output)')
    .option('--strict', 'a line that cannot be read is an error instead of being skipped')
    .addOption(lineLimitOption())
    .action(async (file: string, options) => {
      const { runExportHar } = await import('./export-command.js');
      context.setExitCode(await runExportHar(file, options));
    });

  program
    .command('import')
    .description("read a HAR (a browser's network panel, mitmproxy, export har) into a record for view, check, replay and stats")
    .argument('<file>', 'the HAR file; - for standard input')
    .option('-o, --output <file>', 'where to write the record (default: standard output)')
    .option(
      '--no-default-redact',
      'keep the values the spies mask by default (README, "Secrets": members named password, token, apiKey ..., the headers Authorization, Cookie, X-API-Key ...) as the HAR has them',
    )
    .action(async (file: string, options) => {
      const { runImport } = await import('./import-command.js');
      context.setExitCode(await runImport(file, options));
    });

  withTimeoutOptions(
    withSpyOptions(
      program
        .command('http')
        .description('spy on an MCP server over HTTP (Streamable HTTP or legacy HTTP+SSE): a reverse proxy that records every exchange')
        .usage('--target <url> [options] [-- <server command> [args...]]')
        .requiredOption('--target <url>', "the server's MCP endpoint, e.g. http://127.0.0.1:3000/mcp; the spy forwards to its origin only")
        .option('--listen <[host:]port>', 'where the spy listens', '127.0.0.1:0')
        .option('--redact-header <name>', "also hide this header's value in the record and log (repeatable)", collect, [])
        .option('--no-redact', 'record Authorization, Proxy-Authorization, Cookie and Set-Cookie values and the secrets of OAuth bodies as sent')
        .option(
          '--allow-host <host>',
          "also accept requests whose Host is this (host or host:port; repeatable); by default only the spy's own address",
          collectAllowHost,
          [],
        )
        .option(
          '--allow-origin <origin>',
          'also accept requests from this Origin (repeatable); by default only none or a loopback one',
          collectAllowOrigin,
          [],
        ),
    ),
  )
    .addHelpText('after', httpExamples)
    .action(async (options) => {
      context.setExitCode(await (await import('./http-command.js')).runHttpCommand(context.server, options));
    });

  return program;
}

/** `--max-line`, for the commands that read a recording: how long a line they read may be. */
function lineLimitOption(): Option {
  return new Option('--max-line <size>', 'lines of the recording longer than this are skipped, unread')
    .argParser(sizeParser(lineLimitBounds))
    .default(defaultMaxLine, '32MiB');
}

/** The options every spying command shares: where the record and log go, the live view, limits. */
function withSpyOptions(command: Command): Command {
  command
    .option('--record <file>', 'the record, JSON Lines (default: wire.jsonl)')
    .option('--no-record', 'write no record')
    .option('--log <file>', 'the human log (default: wire.log)')
    .option('--no-log', 'write no human log')
    .option('--allow-readable', 'write a named --record or --log that others can read (a file of another user, or one whose mode cannot be made 0600)')
    .option('-q, --quiet', 'no live view on stderr')
    .option('--no-color', 'no colour in the live view (NO_COLOR and FORCE_COLOR are honoured too)')
    .addOption(
      new Option('--max-frame <size>', 'frames above this are forwarded whole, recorded in part')
        .argParser(sizeParser(frameLimitBounds))
        .default(defaultMaxFrame, '16MiB'),
    )
    .addOption(
      new Option('--drain-timeout <duration>', 'once the server has exited, how long finishing the record may take; the rest becomes a gap')
        .argParser(parseDuration)
        .default(2000, '2s'),
    )
    .option(
      '--lossless',
      'record every frame: when the recorder falls behind, the traffic waits for it (default: the traffic goes first, what the recorder misses becomes a gap)',
    )
    .addOption(redactOption())
    .option('--no-default-redact', 'record members named password, token, apiKey, secret ... (README, "Secrets") as sent')
    .option('--baseline <file>', 'note each listed tool that differs from its pin in this baseline (mcp-spy baseline)')
    .option('--name <name>', "the server's name in a client's config: the record goes to the sessions directory, no log (as mcp-spy wrap sets up)")
    .option('--client <id>', "the client whose config starts the spy, for the session file's name (default with --name: cli)")
    .option(
      '--fault <rule>',
      "break it on purpose: 'METHOD [tool=NAME] [nth=N] [p=0.2]: ACTION ARGS', e.g. 'tools/call tool=search: delay 3s' (repeatable; see README, Break it on purpose)",
      collect,
      [],
    )
    .option('--faults <file>', 'fault rules from a YAML or JSON file (a list, or { seed, faults: [...] })')
    .option('--seed <n>', 'the seed for rules with p=: the same seed repeats the same faults (default: random, said on stderr at the start)')
    .option(
      '--intercept <filter>',
      'hold each frame this filter (the view filter language) matches until it is released from mcp-spy ui: forward, edit, drop or answer with an error (see README, Break it on purpose)',
    )
    .addOption(
      new Option('--hold-timeout <duration>', 'a held frame nobody releases goes on as it was after this long')
        .argParser(parseDuration)
        .default(defaultHoldMs, '30s'),
    )
    .addOption(
      new Option('--max-held <n>', 'at most this many frames held at once: past it the oldest goes on as it was')
        .argParser(parseMaxHeld)
        .default(defaultMaxHeld, '100'),
    )
    .option('--debug', 'show stack traces of internal errors');
  return withExportOptions(command);
}

/** `--redact PATH`: its value is kept apart from the HTTP spy's `--no-redact`, which commander would merge with it. */
function redactOption(): Option {
  const option = new Option('--redact <jsonpath>', 'mask this JSONPath in every frame before it is recorded, e.g. params.arguments.apiKey (repeatable)')
    .argParser((path: string, previous: string[]) => {
      const problem = checkJsonPath(path);
      if (problem) throw new InvalidArgumentError(problem);
      return [...previous, path];
    })
    .default([]);
  option.attributeName = () => 'redactPath';
  return option;
}
