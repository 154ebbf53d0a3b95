#!/usr/bin/env node
// Benchmark: `mcp-spy view` of a generated 1 GiB recording. Prints peak RSS (VmHWM of the view
// process, polled from /proc), time to the first line, total time and throughput.
// Usage: node bench/view.js [size in MiB, default 1024]
import { spawn } from 'node:child_process';
import { createWriteStream, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const sizeMiB = Number(process.argv[2] ?? 1024);
const target = sizeMiB * 1024 * 1024;
const bin = fileURLToPath(new URL('../bin/mcp-spy.js', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'mcp-spy-bench-view-'));
const record = join(dir, 'wire.jsonl');

/** A session's worth of entries: calls with results of several sizes, progress, errors, stderr. */
function* entries() {
  const t0 = Date.parse('2026-07-28T10:00:00.000Z');
  const filler = 'lorem ipsum dolor sit amet '.repeat(40);
  const big = 'x'.repeat(200 * 1024);
  let seq = 0;
  for (let id = 1; ; id++) {
    const t = () => new Date(t0 + seq * 3).toISOString();
    const tool = ['search', 'fetch', 'summarize'][id % 3];
    const params = { name: tool, arguments: { q: `query ${id}` } };
    yield {
      v: 1,
      seq: ++seq,
      t: t(),
      session: 'bench',
      dir: 'c2s',
      kind: 'request',
      bytes: 90,
      method: 'tools/call',
      tool,
      rev: '2025-11-25',
      id,
      raw: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params }),
    };
    if (id % 10 === 0)
      yield {
        v: 1,
        seq: ++seq,
        t: t(),
        session: 'bench',
        dir: 's2c',
        kind: 'notification',
        bytes: 80,
        method: 'notifications/progress',
        rev: '2025-11-25',
        related: { seq: seq - 1, id, method: 'tools/call', tool },
        raw: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: id, progress: 1 } }),
      };
    if (id % 25 === 0) yield { v: 1, seq: ++seq, t: t(), session: 'bench', kind: 'stderr', bytes: 30, raw: `server log line ${id}` };
    const text = id % 500 === 0 ? big : filler.slice(0, 200 + (id % 7) * 100);
    const isError = id % 17 === 0;
    const result = { content: [{ type: 'text', text }], ...(isError ? { isError: true } : {}) };
    const raw = JSON.stringify({ jsonrpc: '2.0', id, result });
    yield {
      v: 1,
      seq: ++seq,
      t: t(),
      session: 'bench',
      dir: 's2c',
      kind: isError ? 'tool-error' : 'response',
      bytes: raw.length,
      method: 'tools/call',
      tool,
      latencyMs: (id % 900) + 0.5,
      related: { seq: seq - 1, id, method: 'tools/call', tool },
      rev: '2025-11-25',
      id,
      raw,
    };
  }
}

async function generate() {
  const out = createWriteStream(record);
  let written = 0;
  let batch = [];
  let batchSize = 0;
  for (const entry of entries()) {
    const line = `${JSON.stringify(entry)}\n`;
    batch.push(line);
    batchSize += line.length;
    if (batchSize >= 4 * 1024 * 1024) {
      if (!out.write(batch.join(''))) await new Promise((resolve) => out.once('drain', resolve));
      written += batchSize;
      batch = [];
      batchSize = 0;
      if (written >= target) break;
    }
  }
  await new Promise((resolve) => out.end(resolve));
}

function peakOf(pid) {
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

async function view() {
  const started = process.hrtime.bigint();
  const child = spawn(process.execPath, [bin, 'view', record], { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, FORCE_COLOR: '0' } });
  let firstLineMs;
  let outBytes = 0;
  let lines = 0;
  let peak = 0;
  const poll = setInterval(() => (peak = Math.max(peak, peakOf(child.pid))), 50);
  child.stdout.on('data', (chunk) => {
    if (firstLineMs === undefined) firstLineMs = Number(process.hrtime.bigint() - started) / 1e6;
    outBytes += chunk.length;
    for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) lines++;
    peak = Math.max(peak, peakOf(child.pid));
  });
  const code = await new Promise((resolve) => child.on('exit', resolve));
  clearInterval(poll);
  const totalMs = Number(process.hrtime.bigint() - started) / 1e6;
  return { code, firstLineMs, totalMs, peak, outBytes, lines };
}

try {
  const generatedAt = Date.now();
  await generate();
  const size = statSync(record).size;
  console.log(`generated ${(size / 1024 / 1024).toFixed(0)} MiB recording in ${((Date.now() - generatedAt) / 1000).toFixed(1)} s`);
  const result = await view();
  const mib = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
  console.log(`view exit code:     ${result.code}`);
  console.log(`peak RSS (VmHWM):   ${mib(result.peak)}`);
  console.log(`time to first line: ${result.firstLineMs?.toFixed(0)} ms`);
  console.log(`total time:         ${(result.totalMs / 1000).toFixed(1)} s (${(size / 1024 / 1024 / (result.totalMs / 1000)).toFixed(0)} MiB/s)`);
  console.log(`printed:            ${result.lines} lines, ${mib(result.outBytes)}`);
  if (result.code !== 0 || result.peak >= 200 * 1024 * 1024) process.exitCode = 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
