import { Command, Option } from 'commander';
import { runDemo } from './demo-command.js';
import { runHttpSpy } from './http-command.js';
import { parseSize } from './options.js';
import { runSpy } from './spy-command.js';
import { version } from './version.js';

const examples = `
Examples:
  mcp-spy -- node server.js                 spy on a stdio server; writes wire.jsonl and wire.log here
  mcp-spy --record /tmp/a.jsonl --no-log -- npx -y @modelcontextprotocol/server-everything stdio
  mcp-spy demo                              see every kind of frame in ten seconds

In a client's MCP config, put mcp-spy in front of the server's command.
Claude Desktop (claude_desktop_config.json):
  { "mcpServers": { "weather": {
      "command": "npx",
      "args": ["-y", "mcp-spy", "--", "node", "/abs/path/server.js"],
      "env": { "MCP_SPY_DIR": "/abs/path/logs" } } } }
Claude Code:
  claude mcp add weather -- npx -y mcp-spy -- node /abs/path/server.js

Files: the record (wire.jsonl) and the log (wire.log) go to the working directory; when it is not
writable, to $XDG_STATE_HOME/mcp-spy (or ~/.local/state/mcp-spy). MCP_SPY_DIR names the directory.
A new run appends to an existing record, starting with a spawn event.
Exit status: the server's own (128+n when a signal ended it); 127 when the command is not found,
126 when it cannot be executed, 2 on bad use.`;

const httpExamples = `
Examples:
  mcp-spy http --target http://127.0.0.1:3000/mcp                 listens on 127.0.0.1, prints its URL
  mcp-spy http --target https://api.example.com/mcp --listen 127.0.0.1:7000
  mcp-spy http --target http://127.0.0.1:3000/mcp -- node server.js --port 3000   also runs the server
  mcp-spy http --target http://127.0.0.1:3001/sse                 a legacy HTTP+SSE server

Point the client at the printed URL. Authorization, Proxy-Authorization, Cookie and Set-Cookie values
are shown as [redacted] in the record and log; the traffic itself is untouched.
Exit status: 0 when stopped by a signal; the server's own when the server command ends; 2 on bad use;
69 when the spy cannot listen.`;

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
    .enablePositionalOptions();
  withSpyOptions(program)
    .addHelpText('after', examples)
    .action(async (options) => {
      context.setExitCode(await runSpy(context.server, options));
    });

  program
    .command('demo')
    .description('run a real MCP client against a bundled server through the spy, and show the record')
    .option('--dir <dir>', 'where to write wire.jsonl and wire.log (default: a new temporary directory)')
    .action(async (options) => {
      context.setExitCode(await runDemo(options));
    });

  withSpyOptions(
    program
      .command('http')
      .description('spy on an MCP server over HTTP (Streamable HTTP or legacy HTTP+SSE): a reverse proxy that records every exchange')
      .usage('--target <url> [options] [-- <server command> [args...]]')
      .requiredOption('--target <url>', 'the server\'s MCP endpoint, e.g. http://127.0.0.1:3000/mcp; the spy forwards to its origin only')
      .option('--listen <[host:]port>', 'where the spy listens', '127.0.0.1:0')
      .option('--redact-header <name>', 'also hide this header\'s value in the record and log (repeatable)', collect, [])
      .option('--no-redact', 'record Authorization, Proxy-Authorization, Cookie and Set-Cookie values as sent'),
  )
    .addHelpText('after', httpExamples)
    .action(async (options) => {
      context.setExitCode(await runHttpSpy(context.server, options));
    });

  return program;
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

/** The options every spying command shares: where the record and log go, the live view, limits. */
function withSpyOptions(command: Command): Command {
  return command
    .option('--record <file>', 'the record, JSON Lines (default: wire.jsonl)')
    .option('--no-record', 'write no record')
    .option('--log <file>', 'the human log (default: wire.log)')
    .option('--no-log', 'write no human log')
    .option('-q, --quiet', 'no live view on stderr')
    .option('--no-color', 'no colour in the live view (NO_COLOR and FORCE_COLOR are honoured too)')
    .addOption(new Option('--max-frame <size>', 'frames above this are forwarded whole, recorded in part').argParser(parseSize).default(16 * 1024 * 1024, '16MiB'))
    .option('--debug', 'show stack traces of internal errors');
}
