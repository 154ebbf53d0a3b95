#!/usr/bin/env node
import { main } from '../dist/cli/main.js';

const code = await main(process.argv.slice(2));
process.exitCode = code;
// Exit now: nothing of ours may keep a server's session waiting once it has ended.
process.exit(code);
