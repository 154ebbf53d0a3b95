#!/usr/bin/env node
// The observer alone, without the forwarding: MCP-sized frames (300 B requests, 2 KiB answers) through
// the pipeline (framing, decoding, classification, correlation) into the record and the human log,
// in this thread. It tells how fast the observer thread can go, which the stdio benchmark cannot
// separate from the forwarding. Alternates "record + log" and "record only" within each repetition.
//   npm run bench:observer     (BENCH_REPS=5, BENCH_FRAMES=100000 exchanges)
// Profile it with: node --cpu-prof bench/observer.js
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRecorder } from '../dist/observer/recorder.js';
import { sinksFor } from '../dist/sinks/open-sinks.js';
import { createStderrOut } from '../dist/sinks/stderr-out.js';
import { createLineFramer } from '../dist/wire/line-framer.js';

const reps = Number(process.env.BENCH_REPS ?? 5);
const exchanges = Number(process.env.BENCH_FRAMES ?? 100_000);
const blockSize = 16 * 1024;

/** The traffic of each direction as the forwarding thread hands it over: blocks of whole and split lines. */
function blocksOf(line) {
  const text = Buffer.from(Array.from({ length: exchanges }, (_, i) => line(i + 1)).join(''));
  const blocks = [];
  for (let at = 0; at < text.length; at += blockSize) blocks.push(text.subarray(at, at + blockSize));
  return { blocks, bytes: text.length };
}
const pad = 'x'.repeat(200);
const c2s = blocksOf((id) => `${JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'echo', arguments: { p: pad } } })}\n`);
const s2c = blocksOf((id) => {
  const head = `{"jsonrpc":"2.0","id":${id},"result":{"content":[{"type":"text","text":"`;
  return `${head}${'y'.repeat(2048 - head.length - 7)}"}]}}\n`;
});

async function runOnce(dir, log) {
  const stderr = createStderrOut();
  const outputs = { recordPath: join(dir, 'wire.jsonl'), logPath: log ? join(dir, 'wire.log') : undefined, recordNamed: true, logNamed: true, live: false, color: false, maxFrame: 16 << 20 };
  const recorder = createRecorder({ sinks: await sinksFor(outputs, stderr), warn: (m) => process.stderr.write(`${m}\n`), transport: 'stdio' });
  const framers = { c2s: createLineFramer(16 << 20), s2c: createLineFramer(16 << 20) };
  const started = performance.now();
  const cpu = process.cpuUsage();
  for (let b = 0; b < Math.max(c2s.blocks.length, s2c.blocks.length); b++) {
    for (const [dir, source] of [['c2s', c2s], ['s2c', s2c]]) {
      const block = source.blocks[b];
      if (block) for (const line of framers[dir].push(block)) recorder.frame('bench', dir, line);
    }
    if (recorder.backlog() > 4 << 20) await recorder.caughtUp(1 << 20);
  }
  await recorder.close();
  const ms = performance.now() - started;
  const used = process.cpuUsage(cpu);
  rmSync(join(dir, 'wire.jsonl'), { force: true });
  rmSync(join(dir, 'wire.log'), { force: true });
  return { ms, cpuMs: (used.user + used.system) / 1000 };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const dir = mkdtempSync(join(tmpdir(), 'mcp-spy-bench-observer-'));
const load = loadavg()[0];
const runs = { 'record + log': [], 'record only': [] };
try {
  for (let rep = 0; rep < reps; rep++) {
    const order = rep % 2 === 0 ? [true, false] : [false, true];
    for (const log of order) runs[log ? 'record + log' : 'record only'].push(await runOnce(dir, log));
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
const frames = 2 * exchanges;
const mib = (c2s.bytes + s2c.bytes) / (1 << 20);
console.log(`observer alone: ${exchanges} exchanges (300 B requests, 2 KiB answers), ${reps} repetitions, load ${load.toFixed(1)} -> ${loadavg()[0].toFixed(1)}`);
console.log('setup          frames/s (median, min..max)      MiB/s   CPU us/frame');
for (const [name, list] of Object.entries(runs)) {
  const rates = list.map((run) => frames / (run.ms / 1000));
  console.log(`${name.padEnd(14)} ${Math.round(median(rates)).toString().padStart(8)} (${Math.round(Math.min(...rates))}..${Math.round(Math.max(...rates))})`.padEnd(47) + `${(mib / (median(list.map((run) => run.ms)) / 1000)).toFixed(1).padStart(6)}   ${(median(list.map((run) => run.cpuMs)) * 1000 / frames).toFixed(1).padStart(6)}`);
}
