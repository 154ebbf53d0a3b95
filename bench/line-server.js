#!/usr/bin/env node
// Benchmark server: answers each line it reads with one JSON-RPC response of a given size
//   node bench/line-server.js <responseBytes>
// It finds lines by scanning for newlines only and parses nothing, so it is never the bottleneck:
// a JSON-parsing server capped the direct setup at 16-29 MiB/s and hid the spy's cost.
// Requests are numbered 1, 2, ... in the order they come; the nth answer carries id n.
const size = Number(process.argv[2] ?? 2048);
const tail = Buffer.from('"}}\n');
const padding = Buffer.alloc(size, 'x');
let answered = 0;

function answer() {
  const head = Buffer.from(`{"jsonrpc":"2.0","id":${++answered},"result":{"d":"`);
  return [head, padding.subarray(0, Math.max(0, size - head.length - tail.length)), tail];
}

process.stdin.on('data', (chunk) => {
  const parts = [];
  for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) parts.push(...answer());
  if (parts.length === 0) return;
  // Small answers go out in one write; large ones piece by piece, without copying the padding.
  if (size < 65536) process.stdout.write(Buffer.concat(parts));
  else for (const part of parts) process.stdout.write(part);
});
