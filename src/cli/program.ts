import { Command, Option } from 'commander';
import { runDemo } from './demo-command.js';
import { SpyError } from './errors.js';
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
    .enablePositionalOptions()
    .option('--record <file>', 'the record, JSON Lines (default: wire.jsonl)')
    .option('--no-record', 'write no record')
    .option('--log <file>', 'the human log (default: wire.log)')
    .option('--no-log', 'write no human log')
    .option('-q, --quiet', 'no live view on stderr')
    .option('--no-color', 'no colour in the live view (NO_COLOR and FORCE_COLOR are honoured too)')
    .addOption(new Option('--max-frame <size>', 'frames above this are forwarded whole, recorded in part').argParser(parseSize).default(16 * 1024 * 1024, '16MiB'))
    .option('--debug', 'show stack traces of internal errors')
    .addHelpText('after', examples)
    .allowExcessArguments(true)
    .action(async (options, command: Command) => {
      if (command.args.length > 0) {
        throw new SpyError(`unknown command '${command.args[0]}'; to spy on a server, put its command after --: mcp-spy -- ${command.args.join(' ')}`);
      }
      context.setExitCode(await runSpy(context.server, options));
    });

  program
    .command('demo')
    .description('run a real MCP client against a bundled server through the spy, and show the record')
    .option('--dir <dir>', 'where to write wire.jsonl and wire.log (default: a new temporary directory)')
    .action(async (options) => {
      context.setExitCode(await runDemo(options));
    });

  return program;
}
