import { CommanderError } from 'commander';
import { describeFailure, exitCodes } from './errors.js';
import { splitServerCommand } from './options.js';
import { buildProgram } from './program.js';

/** Runs the CLI on argv (without node and script) and resolves with the exit status. */
export async function main(argv: string[]): Promise<number> {
  const { own, server } = splitServerCommand(argv);
  let exitCode: number = exitCodes.ok;
  const program = buildProgram({ server, setExitCode: (code) => (exitCode = code) });
  program.exitOverride();
  program.configureOutput({
    outputError: (text, write) => write(`mcp-spy: ${text.replace(/^error: /, '').trimEnd()} (see mcp-spy --help)\n`),
  });
  for (const command of program.commands) {
    // Every command takes --debug, so that a bug report's command line works on any of them.
    if (!command.options.some((option) => option.long === '--debug')) command.option('--debug', 'show stack traces of internal errors');
    command.exitOverride();
    command.configureOutput({
      outputError: (text, write) => write(`mcp-spy ${command.name()}: ${text.replace(/^error: /, '').trimEnd()} (see mcp-spy ${command.name()} --help)\n`),
    });
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
