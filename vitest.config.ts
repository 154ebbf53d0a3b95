import { defineConfig } from 'vitest/config';

/** Tests of the pure stages and small modules: no process spawned, seconds in all (`npm run test:unit`). */
const unit = [
  'test/wire/**/*.test.ts',
  'test/render/**/*.test.ts',
  'test/transports/**/*.test.ts',
  'test/cli/**/*.test.ts',
  'test/record/**/*.test.ts',
  'test/clients/**/*.test.ts',
  'test/check/rules*.test.ts',
  'test/drift/{classify,baseline-file,format}.test.ts',
  'test/review/{filter-expression,stats,time-point,session-prune}.test.ts',
  'test/sinks/last-words.test.ts',
  'test/sinks/human-log-behind.test.ts',
  'test/sinks/line-sink-checkpoint.test.ts',
  'test/observer/recorder.test.ts',
  'test/observer/http-exchanges.test.ts',
  'test/observer/lag.test.ts',
  'test/layers.test.ts',
  'test/docs-links.test.ts',
  'test/replay-units.test.ts',
  'test/replay-value-map.test.ts',
  'test/export/telemetry-model.test.ts',
  'test/export/metric-names.test.ts',
  'test/export/span-queue.test.ts',
  'test/report/report-units.test.ts',
  'test/ui/{reducer,screens,effects,log}.test.ts',
  'test/faults/rules.test.ts',
  'test/faults/sse-blocks.test.ts',
  'test/faults/byte-fuzz-units.test.ts',
];

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 2,
    env: { FORCE_COLOR: '0' },
    projects: [
      { extends: true, test: { name: 'unit', include: unit } },
      // End to end: the built binary between real peers, fault injection, real recordings.
      { extends: true, test: { name: 'e2e', include: ['test/**/*.test.ts'], exclude: unit } },
    ],
  },
});
