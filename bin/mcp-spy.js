#!/usr/bin/env node
import { setFlagsFromString } from 'node:v8';

// Before anything else loads: a stop signal while the spy starts must still end in a record.
const { holdEarlySignals } = await import('../dist/cli/early-signals.js');
holdEarlySignals(process.argv.slice(2));
// A small young generation: a spy passing hundreds of MiB should hold little of them at a time.
setFlagsFromString('--max-semi-space-size=2');
const { main } = await import('../dist/cli/main.js');

const code = await main(process.argv.slice(2));
process.exitCode = code;
// Exit now: nothing of ours may keep a server's session waiting once it has ended.
process.exit(code);
