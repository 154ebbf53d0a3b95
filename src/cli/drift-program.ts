import { Option, type Command } from 'commander';
import { failOnChoices } from '../drift/change.js';
import { diffFormats } from '../drift/format.js';
import { collect, parseDuration } from './replay-options.js';

const diffHelp = `
Compares server and client info, revision, capabilities, the tools, prompts and resources listed
(added, removed, changed: description, input and output schema, annotations) and the answers to the
same requests (matched as replay matches them, with its ignores). Each change is classed:
  breaking    a tool, prompt or resource removed, a required argument added, a type narrowed, an
              output field dropped, a capability dropped, a tool no longer read-only or now
              destructive, an answer that now fails
  risky       a description changed (what the model is told), an answer changed (with its values),
              the revision changed, another server (its name changed)
  compatible  a tool or an optional argument added, an answer that now succeeds, a new version
Exit status: 0 no change of the --fail-on class, 1 one or more, 2 bad use.

Examples:
  mcp-spy diff before.jsonl after.jsonl
  mcp-spy diff before.jsonl after.jsonl --fail-on breaking --format junit > mcp-diff.xml
  mcp-spy diff before.jsonl --format markdown -- node server.js    against the live server (replayed)`;

const baselineHelp = `
The file pins each tool each server listed (by server name): its definition and a hash of it, keys
sorted, for review in a pull request. Then:
  mcp-spy check wire.jsonl --baseline mcp-tools.lock.json     fails on a tool that differs from its pin
  mcp-spy --baseline mcp-tools.lock.json -- node server.js    notes it live (tool-definition-changed)`;

interface DriftContext {
  server: string[] | undefined;
  setExitCode(code: number): void;
}

/** `diff` and `baseline`: what changed between sessions of a server, and pinning its tools. */
export function addDriftCommands(program: Command, context: DriftContext): void {
  program
    .command('diff')
    .description('what changed between two recordings of a server (or a recording and the live server): each change classed breaking, risky or compatible')
    .argument('<before>', 'the earlier recording (wire.jsonl)')
    .argument('[after]', 'the later recording; or give a server command after -- to record it live')
    .addOption(new Option('--fail-on <class>', 'exit 1 on changes of this class or worse').choices(failOnChoices).default('any'))
    .addOption(new Option('--format <format>', 'output format (markdown for a pull request comment)').choices(diffFormats).default('text'))
    .option('--ignore <path>', 'leave this JSONPath out of the answers compared (repeatable)', collect, [])
    .option('--no-ignore-file', 'do not read <before>.ignore')
    .option('-o, --output <file>', 'where to write the report (default: standard output)')
    .addOption(new Option('--timeout <duration>', 'live: how long to wait for each response').argParser(parseDuration).default(10_000, '10s'))
    .addHelpText('after', diffHelp)
    .action(async (before: string, after: string | undefined, options) => {
      const { runDiff } = await import('./drift-command.js');
      context.setExitCode(await runDiff(before, after, context.server, options));
    });

  program
    .command('baseline')
    .description('pin the tools each server of a recording lists, in a lock file for review (check --baseline and the spy compare with it)')
    .argument('<record>', 'the recording (wire.jsonl)')
    .option('-o, --output <file>', 'where to write the baseline (default: standard output)')
    .addHelpText('after', baselineHelp)
    .action(async (record: string, options) => {
      const { runBaseline } = await import('./drift-command.js');
      context.setExitCode(await runBaseline(record, options));
    });
}
