// Set up before each unit test file: the e2e marker is the file name (`*.e2e.test.ts`), and this
// keeps it honest. A test without the marker that starts a process fails at once, saying what to
// rename, instead of slowing the unit run or passing here and failing on a busy machine.
import childProcess from 'node:child_process';
import { syncBuiltinESMExports } from 'node:module';

const starters = ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork'] as const;
const table = childProcess as unknown as Record<(typeof starters)[number], (...args: unknown[]) => unknown>;

for (const name of starters) {
  table[name] = (command: unknown) => {
    throw new Error(`a unit test starts no process (${name} ${String(command)}): name the test file *.e2e.test.ts`);
  };
}
// The ESM named exports (`import { spawn } from 'node:child_process'`) follow the change only after this.
syncBuiltinESMExports();
