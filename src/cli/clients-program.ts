import { InvalidArgumentError, Option, type Command } from 'commander';
import { clientIds } from '../clients/client-table.js';
import { sizeParser } from './options.js';
import { collect } from './replay-options.js';

const wrapHelp = `
Each stdio server entry of the client's config gets the spy in front of it: its command becomes this
node and mcp-spy (absolute paths, as a client starts servers with a bare PATH), with the entry's own
command after --; its env, cwd and other fields stay as they were. Each run of a wrapped server
writes its record to the sessions directory (mcp-spy sessions). Entries with a URL are not wrapped
(with --http they point at a spy on this machine that you run with the command printed).
The file is parsed first, written atomically, backed up beside itself before its first change
(FILE.mcp-spy-backup); comments of a VS Code mcp.json are kept. mcp-spy unwrap puts each entry back.

Clients: ${clientIds.join(', ')}. Without one, every config found on this machine (user scope) and
in this project (--project DIR; project and local scopes).

Examples:
  mcp-spy wrap                                     what would change, then asks
  mcp-spy wrap claude-code --yes                   every stdio server of Claude Code, all scopes
  mcp-spy wrap cursor --server weather --dry-run   the change as a diff, nothing written
  mcp-spy wrap --config ./mcp.json --format vscode a file where no client table looks`;

interface ClientsContext {
  setExitCode(code: number): void;
}

function parseKeep(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1) throw new InvalidArgumentError('expected a whole number of 1 or more');
  return Number(value);
}

/** --config, --format, --server, --dry-run: what wrap and unwrap share. */
function withTargetOptions(command: Command): Command {
  return command
    .argument('[client]', `the client: ${clientIds.join(', ')} (default: all found)`)
    .option('--config <file>', 'a config file where the table does not look (with --format)')
    .addOption(new Option('--format <client>', 'the client whose format --config has').choices(clientIds))
    .option('--server <name>', 'only this entry (repeatable)', collect, [])
    .option('--dry-run', 'print the change as a unified diff; write nothing');
}

/** `wrap`, `unwrap`, `sessions`: the spy in front of a real client's servers, and their sessions. */
export function addClientCommands(program: Command, context: ClientsContext): void {
  withTargetOptions(
    program
      .command('wrap')
      .description("put the spy in front of each stdio server of a client's config (Claude Desktop, Claude Code, Cursor, VS Code, Windsurf)"),
  )
    .option('--project <dir>', 'the project whose project and local scopes to wrap (default: the working directory)')
    .option('-y, --yes', 'write without asking')
    .option('--http', 'also point URL entries at a spy on this machine (127.0.0.1, a port each), which you run with the command printed')
    .addHelpText('after', wrapHelp)
    .action(async (client: string | undefined, options) => {
      const { runWrap } = await import('./wrap-command.js');
      context.setExitCode(await runWrap(client, options));
    });

  withTargetOptions(program.command('unwrap').description('put back each entry mcp-spy wrap changed, exactly as it was')).action(
    async (client: string | undefined, options) => {
      const { runUnwrap } = await import('./unwrap-command.js');
      context.setExitCode(await runUnwrap(client, options));
    },
  );

  const sessions = program
    .command('sessions')
    .description("the sessions of wrapped servers: each server's last one (client, name, state, frames, errors, file)")
    .addOption(new Option('--format <format>', 'output format').choices(['text', 'json']).default('text'))
    .option('--all', 'every session, not only the last of each server')
    .option('--dir <dir>', 'the sessions directory (default: MCP_SPY_DIR, else $XDG_STATE_HOME/mcp-spy/sessions)')
    .action(async (options) => {
      const { runSessions } = await import('./sessions-command.js');
      context.setExitCode(await runSessions(options));
    });
  sessions
    .command('prune')
    .description('remove old sessions: keep the newest N per server, or what fits a size (never one still being written)')
    .option('--keep <count>', 'the newest sessions kept per server', parseKeep)
    .option('--max-size <size>', 'the newest sessions kept, in all, up to this size (e.g. 500MiB)', sizeParser({ min: 0, max: Number.MAX_SAFE_INTEGER }))
    .option('--dry-run', 'say what would be removed; remove nothing')
    .option('--dir <dir>', 'the sessions directory')
    .action(async (options) => {
      const { runPrune } = await import('./sessions-command.js');
      context.setExitCode(await runPrune(options));
    });
}
