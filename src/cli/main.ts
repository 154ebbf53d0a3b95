import { CommanderError, Help, type Command, type Option } from 'commander';
import { describeFailure, exitCodes } from './errors.js';
import { splitServerCommand } from './options.js';
import { buildProgram } from './program.js';
import { sanitize } from '../render/sanitize.js';

/**
 * Gives a command, and every command under it (`export har`), the house ways: one line on stderr
 * for bad use, `--debug`, and no extra arguments taken without a word.
 */
function configureCommands(command: Command, path: string): void {
  for (const sub of command.commands) {
    const name = `${path} ${sub.name()}`;
    // Every command takes --debug, so that a bug report's command line works on any of them.
    if (!sub.options.some((option) => option.long === '--debug')) sub.option('--debug', 'show stack traces of internal errors');
    // Subcommands inherit the spy's own allowance of extra words; a command that reads files does not ignore one.
    if (!sub.registeredArguments.some((argument) => argument.variadic)) sub.allowExcessArguments(false);
    sub.exitOverride();
    sub.configureHelp(helpSettings);
    sub.configureOutput({
      outputError: (text, write) => write(`${name}: ${commanderLine(text, takesServer.has(sub.name()))} (see ${name} --help)\n`),
    });
    configureCommands(sub, name);
  }
}

/** Help without `(default: [])` under each repeatable option: an empty list is no default to speak of. */
const helpSettings = {
  optionDescription(this: Help, option: Option): string {
    const emptyList = Array.isArray(option.defaultValue) && option.defaultValue.length === 0;
    return Help.prototype.optionDescription.call(this, emptyList ? Object.assign(Object.create(option) as Option, { defaultValue: undefined }) : option);
  },
};

/** The commands that take a server command after `--`: an extra word may be one put before it. */
const takesServer = new Set(['replay', 'diff', 'http']);

const arguments_ = (count: string) => (count === '0' ? 'no arguments' : count === '1' ? 'one argument' : `${count} arguments`);

/** Commander's message as one line of ours. */
function commanderLine(text: string, server = false): string {
  return text
    .replace(/^error: /, '')
    .trimEnd()
    .replace(
      /^too many arguments for '[^']+'\. Expected (\d+) arguments? but got (\d+)\.$/,
      (_all, expected: string, got: string) =>
        `too many arguments: it takes ${arguments_(expected)}, not ${got}${server ? '; a server command goes after --' : ''}`,
    )
    .replace(/ is invalid\. Allowed choices are (.*)\.$/, ' is invalid: expected one of $1')
    .replace(/ is invalid\. /, ' is invalid: ');
}

/** `help NAME` (or `export help NAME`) for a command that does not exist: commander would print the help as if asked. */
function unknownHelpTopic(program: Command, argv: string[]): string | undefined {
  let command = program;
  let path = 'mcp-spy';
  let at = 0;
  for (;;) {
    const sub = command.commands.find((one) => one.name() === argv[at] || one.aliases().includes(argv[at] ?? ''));
    if (!sub) break;
    command = sub;
    path = `${path} ${sub.name()}`;
    at++;
  }
  const topic = argv[at + 1];
  if (argv[at] !== 'help' || command.commands.length === 0 || topic === undefined || topic.startsWith('-')) return undefined;
  const names = [...command.commands.map((one) => one.name()), 'help'];
  if (names.includes(topic) || command.commands.some((one) => one.aliases().includes(topic))) return undefined;
  return `${path}: unknown command '${sanitize(topic)}'; the commands: ${names.join(', ')} (see ${path} --help)`;
}

/** Runs the CLI on argv (without node and script) and resolves with the exit status. */
export async function main(argv: string[]): Promise<number> {
  const { own, server } = splitServerCommand(argv);
  let exitCode: number = exitCodes.ok;
  const program = buildProgram({ server, setExitCode: (code) => (exitCode = code) });
  program.exitOverride();
  program.configureHelp(helpSettings);
  program.configureOutput({
    outputError: (text, write) => write(`mcp-spy: ${commanderLine(text)} (see mcp-spy --help)\n`),
  });
  configureCommands(program, 'mcp-spy');
  const unknownTopic = unknownHelpTopic(program, own);
  if (unknownTopic) {
    process.stderr.write(`${unknownTopic}\n`);
    return exitCodes.badUse;
  }
  try {
    await program.parseAsync(own, { from: 'user' });
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      return error.exitCode === 0 ? exitCodes.ok : exitCodes.badUse;
    }
    const { line, exitCode: failureCode } = describeFailure(error, own.includes('--debug'));
    process.stderr.write(`${line}\n`);
    return failureCode;
  }
}
