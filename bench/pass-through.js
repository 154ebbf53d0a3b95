#!/usr/bin/env node
// The floor of any Node spy: spawns the server and pipes stdin and stdout through without looking
// at the bytes. A Node spy cannot forward faster than this; the benchmark compares mcp-spy with it.
//   node bench/pass-through.js <command> [args...]
import { spawn } from 'node:child_process';

const [command, ...args] = process.argv.slice(2);
const server = spawn(command, args, { stdio: ['pipe', 'pipe', 'inherit'] });

process.stdin.pipe(server.stdin);
server.stdout.pipe(process.stdout);
// The client may close first, or the server may; neither is an error here.
server.stdin.on('error', () => {});
process.stdout.on('error', () => {});

server.on('exit', (code, signal) => {
  if (signal) process.kill(process.pid, signal);
  else process.exitCode = code ?? 0;
});
