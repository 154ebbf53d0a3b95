import { describe, expect, it } from 'vitest';
import { subcommands } from '../../src/cli/early-signals.js';
import { buildProgram } from '../../src/cli/program.js';

describe('the commands that are not the stdio spy', () => {
  it('are every subcommand of the program (a new one must not have its signals held)', () => {
    const program = buildProgram({ server: undefined, setExitCode: () => {} });
    const names = program.commands.map((command) => command.name()).filter((name) => name !== 'help');
    expect([...subcommands].sort()).toEqual(names.sort());
  });
});
