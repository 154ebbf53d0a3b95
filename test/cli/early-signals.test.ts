import { describe, expect, it } from 'vitest';
import { holdEarlySignals, subcommands, takeEarlySignal } from '../../src/cli/early-signals.js';
import { buildProgram } from '../../src/cli/program.js';

describe('the commands that are not the stdio spy', () => {
  it('are every subcommand of the program (a new one must not have its signals held)', () => {
    const program = buildProgram({ server: undefined, setExitCode: () => {} });
    const names = program.commands.map((command) => command.name()).filter((name) => name !== 'help');
    expect([...subcommands].sort()).toEqual(names.sort());
  });

  it.each([
    [['--client', 'cursor', '--name', 'view', '--', 'node', 's.js'], 1],
    [['--name', 'sessions', '--', 'node', 's.js'], 1],
    [['view', '--', 'x'], 0],
    [['replay', 'wire.jsonl', '--', 'node', 's.js'], 0],
  ])('%j: the stop signals are held until the spy takes them (%i)', (argv, held) => {
    const before = process.listenerCount('SIGTERM');
    holdEarlySignals(argv);
    expect(process.listenerCount('SIGTERM') - before).toBe(held);
    takeEarlySignal();
    expect(process.listenerCount('SIGTERM')).toBe(before);
  });
});
