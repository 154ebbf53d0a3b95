#!/usr/bin/env node
// The first thing, before any module of ours loads (on a busy machine that takes a while): a stop
// signal while the spy starts must still end in a record. The signals of src/spy/signals.ts.
let earliest;
const holdEarliest = (signal) => (earliest ??= signal);
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, holdEarliest);

const { holdEarlySignals } = await import('../dist/cli/early-signals.js');
holdEarlySignals(process.argv.slice(2), {
  received: () => earliest,
  release: () => ['SIGINT', 'SIGTERM', 'SIGHUP'].forEach((signal) => process.off(signal, holdEarliest)),
});
const { main } = await import('../dist/cli/main.js');

const code = await main(process.argv.slice(2));
process.exitCode = code;
// What is still queued for stdout and stderr goes out first (a pipe takes it in pieces; exiting
// would drop the rest): an empty write's callback runs once everything before it is written.
const written = (stream) =>
  stream.writableLength === 0 || stream.destroyed
    ? undefined
    : new Promise((resolve) => {
        stream.on('error', resolve);
        stream.write('', resolve);
      });
await Promise.all([written(process.stdout), written(process.stderr)]);
// Then exit at once: nothing of ours may keep a server's session waiting once it has ended.
process.exit(code);
