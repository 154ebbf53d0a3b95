#!/usr/bin/env node
// The observer alone, without the forwarding: MCP-sized frames (300 B requests, 2 KiB answers) through
// the pipeline (framing, decoding, classification, correlation) into the record and the human log,
// in this thread. It tells how fast the observer thread can go, which the stdio benchmark cannot
// separate from the forwarding. Alternates "record + log" and "record only" within each repetition.
// With --http, the HTTP spy's observer: each exchange as the forwarding thread announces it (head,
// body, response head, body, end), stateless JSON answers as the bench server gives them.
//   npm run bench:observer [-- --http]    (BENCH_REPS=5, BENCH_FRAMES=100000 exchanges, 20000 with --http)
// Profile it with: node --cpu-prof bench/observer.js
import { mkdtempSync, rmSync } from 'node:fs';
import { STATUS_CODES } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { observeHttp } from '../dist/observer/http/observe-http.js';
import { createRecorder } from '../dist/observer/recorder.js';
import { sinksFor } from '../dist/sinks/open-sinks.js';
import { createStderrOut } from '../dist/sinks/stderr-out.js';
import { createLineFramer } from '../dist/wire/framing/line-framer.js';

const reps = Number(process.env.BENCH_REPS ?? 5);
const http = process.argv.includes('--http');
const exchanges = Number(process.env.BENCH_FRAMES ?? (http ? 20_000 : 100_000));
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

/** The HTTP spy's messages for exchange `x`, with the headers a Node client and the bench server send. */
function httpMessages(x, t) {
  const body = Buffer.from(`{"jsonrpc":"2.0","id":${x},"method":"tools/call","params":{"name":"echo","arguments":{"p":"${pad}"}}}`);
  const head = `{"jsonrpc":"2.0","id":${x},"result":{"content":[{"type":"text","text":"`;
  const answer = Buffer.from(`${head}${'y'.repeat(2048 - head.length - 7)}"}]}}`);
  const request = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': '2025-11-25',
    host: '127.0.0.1:4000',
    connection: 'keep-alive',
    'content-length': String(body.length),
  };
  const response = {
    'content-type': 'application/json',
    date: new Date(t).toUTCString(),
    connection: 'keep-alive',
    'keep-alive': 'timeout=5',
    'content-length': String(answer.length),
  };
  return [
    { type: 'open', x, method: 'POST', path: '/mcp', headers: request },
    { type: 'request-chunk', x, t, data: new Uint8Array(body) },
    { type: 'request-end', x, t },
    { type: 'response', x, t: t + 0.5, status: 200, headers: response },
    { type: 'response-chunk', x, t: t + 0.5, data: new Uint8Array(answer) },
    { type: 'response-end', x, t: t + 0.5 },
  ];
}

async function runOnce(dir, log) {
  const stderr = createStderrOut();
  const outputs = {
    recordPath: join(dir, 'wire.jsonl'),
    logPath: log ? join(dir, 'wire.log') : undefined,
    recordNamed: true,
    logNamed: true,
    live: false,
    color: false,
    maxFrame: 16 << 20,
  };
  const recorder = createRecorder({ sinks: await sinksFor(outputs, stderr), warn: (m) => process.stderr.write(`${m}\n`), transport: http ? 'http' : 'stdio' });
  const started = performance.now();
  const cpu = process.cpuUsage();
  if (http) {
    const observer = observeHttp({ redactHeaders: [], redact: true, mcpPath: '/mcp', maxFrame: 16 << 20 }, recorder, STATUS_CODES);
    const t0 = performance.now();
    for (let x = 1; x <= exchanges; x++) {
      for (const message of httpMessages(x, t0 + x / 10)) observer.handle(message);
      if (x % 256 === 0 && recorder.backlog() > 4 << 20) await recorder.caughtUp(1 << 20);
    }
    observer.end();
  } else {
    const framers = { c2s: createLineFramer(16 << 20), s2c: createLineFramer(16 << 20) };
    for (let b = 0; b < Math.max(c2s.blocks.length, s2c.blocks.length); b++) {
      for (const [dir, source] of [
        ['c2s', c2s],
        ['s2c', s2c],
      ]) {
        const block = source.blocks[b];
        if (block) for (const line of framers[dir].push(block)) recorder.frame('bench', dir, line);
      }
      if (recorder.backlog() > 4 << 20) await recorder.caughtUp(1 << 20);
    }
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
console.log(
  `observer alone (${http ? 'HTTP spy, stateless JSON exchanges' : 'stdio spy'}): ${exchanges} exchanges (300 B requests, 2 KiB answers), ${reps} repetitions, load ${load.toFixed(1)} -> ${loadavg()[0].toFixed(1)}`,
);
console.log('setup          frames/s (median, min..max)      MiB/s   CPU us/frame  us/exchange');
for (const [name, list] of Object.entries(runs)) {
  const rates = list.map((run) => frames / (run.ms / 1000));
  console.log(
    `${`${name.padEnd(14)} ${Math.round(median(rates)).toString().padStart(8)} (${Math.round(Math.min(...rates))}..${Math.round(Math.max(...rates))})`.padEnd(47)}${(mib / (median(list.map((run) => run.ms)) / 1000)).toFixed(1).padStart(6)}   ${((median(list.map((run) => run.cpuMs)) * 1000) / frames).toFixed(1).padStart(6)}   ${((median(list.map((run) => run.cpuMs)) * 1000) / exchanges).toFixed(1).padStart(10)}`,
  );
}
