import { defineConfig } from 'vitest/config';

// One marker: a test file that starts a process (the built binary, a server, a browser, tmux) is
// named `*.e2e.test.ts`; every other test file is a unit test, run in seconds (`npm run test:unit`).
// The unit project's setup file refuses to start a process, so a file without the marker cannot.
const e2e = 'test/**/*.e2e.test.ts';

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 2,
    env: { FORCE_COLOR: '0' },
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: ['test/**/*.test.ts'], exclude: [e2e], setupFiles: ['test/helpers/no-process.ts'] },
      },
      // End to end: the built binary between real peers, fault injection, real recordings.
      { extends: true, test: { name: 'e2e', include: [e2e] } },
    ],
  },
});
