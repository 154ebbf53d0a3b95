#!/usr/bin/env node
// Benchmark: the console (mcp-spy ui) opening a generated recording, without a terminal: its sources
// and reducer as `ui` runs them. Prints the time to the first batch (the first screen), the time to
// read it all, the peak RSS, and how long a key (a move, a filter over every entry) takes then.
// Usage: node --expose-gc bench/ui.js [size in MiB, default 1024]
import { appendFileSync, createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tuneHeapForConsole } from '../dist/ui/heap.js';

// As `mcp-spy ui` does, before the console allocates.
tuneHeapForConsole();
const { reduce } = await import('../dist/ui/reducer.js');
const { createFileLoader, followSources } = await import('../dist/ui/sources.js');
const { initialState } = await import('../dist/ui/state.js');

const sizeMiB = Number(process.argv[2] ?? 1024);
const dir = mkdtempSync(join(tmpdir(), 'mcp-spy-bench-ui-'));
const record = join(dir, 'wire.jsonl');

/** A session's worth of v2 entries: calls with results of several sizes, progress, errors. */
function* lines() {
  const t0 = Date.parse('2026-12-01T17:00:00.000Z');
  const filler = 'lorem ipsum dolor sit amet '.repeat(40);
  let seq = 0;
  const line = (fields, msg) =>
    `${JSON.stringify({ v: 2, seq: ++seq, t: new Date(t0 + seq * 3).toISOString(), session: 'bench', ...fields }).slice(0, -1)},"msg":${JSON.stringify(msg)}}\n`;
  for (let id = 1; ; id++) {
    const tool = ['search', 'fetch', 'summarize'][id % 3];
    yield line(
      { dir: 'c2s', kind: 'request', method: 'tools/call', tool, id, bytes: 90 },
      { jsonrpc: '2.0', id, method: 'tools/call', params: { name: tool, arguments: { q: `query ${id}` } } },
    );
    if (id % 10 === 0)
      yield line(
        { dir: 's2c', kind: 'notification', method: 'notifications/progress', related: { seq, id, method: 'tools/call', tool }, bytes: 80 },
        { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: id, progress: 1 } },
      );
    const isError = id % 17 === 0;
    const result = { content: [{ type: 'text', text: filler.slice(0, 200 + (id % 7) * 100) }], ...(isError ? { isError: true } : {}) };
    yield line(
      {
        dir: 's2c',
        kind: isError ? 'tool-error' : 'response',
        method: 'tools/call',
        tool,
        id,
        latencyMs: (id % 900) + 0.5,
        related: { seq: seq - (id % 10 === 0 ? 1 : 0), id, method: 'tools/call', tool },
        bytes: 300,
      },
      { jsonrpc: '2.0', id, result },
    );
  }
}

async function generate() {
  const out = createWriteStream(record);
  let written = 0;
  let batch = '';
  for (const text of lines()) {
    batch += text;
    if (batch.length < 4 * 1024 * 1024) continue;
    if (!out.write(batch)) await new Promise((resolve) => out.once('drain', resolve));
    written += batch.length;
    batch = '';
    if (written >= sizeMiB * 1024 * 1024) break;
  }
  await new Promise((resolve) => out.end(resolve));
}

/** How long a line written to a followed directory takes to reach the console: in a new file, or appended. */
async function liveLatency(what) {
  const live = mkdtempSync(join(dir, 'live-'));
  const file = join(live, 'a--b--20261201T170000000Z-1.jsonl');
  const first = lines().next().value;
  if (what === 'frame') appendFileSync(file, first);
  const stop = new AbortController();
  let written;
  let seen;
  const caughtUp = new Promise((resolve) => {
    const done = followSources({
      paths: [live],
      signal: stop.signal,
      onBatch: (items) => {
        if (written !== undefined && items.length > 0 && seen === undefined) {
          seen = Number(process.hrtime.bigint() - written) / 1e6;
          stop.abort();
        }
      },
      onProblem: () => {},
      onCaughtUp: () => resolve({ done }),
    });
    if (what === 'session') resolve({ done });
  });
  // (An object: resolving with the promise itself would wait for the end.)
  const { done } = await caughtUp;
  // The sources look at the directory and the files every 100 ms, as `ui` runs them.
  await new Promise((resolve) => setTimeout(resolve, 150));
  written = process.hrtime.bigint();
  appendFileSync(file, first);
  await done;
  return seen;
}

const timed = (work) => {
  const started = process.hrtime.bigint();
  const value = work();
  return [value, Number(process.hrtime.bigint() - started) / 1e6];
};

try {
  await generate();
  const size = statSync(record).size;
  const files = createFileLoader();
  let state = initialState({ load: files.load, width: 120, height: 40 });
  const stop = new AbortController();
  const started = process.hrtime.bigint();
  let firstBatchMs;
  let firstScreenMs;
  let peak = 0;
  const poll = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
  await followSources({
    paths: [record],
    signal: stop.signal,
    onBatch: (items) => {
      firstBatchMs ??= Number(process.hrtime.bigint() - started) / 1e6;
      state = reduce(state, { type: 'entries', items });
      if (firstScreenMs === undefined) {
        // The rows the frames screen would draw: the last page, each read again from the file.
        const shown = reduce(state, { type: 'open' });
        for (let at = Math.max(0, shown.visible.length - 40); at < shown.visible.length; at++) shown.log.row(shown.visible.at(at), shown.load);
        firstScreenMs = Number(process.hrtime.bigint() - started) / 1e6;
      }
      peak = Math.max(peak, process.memoryUsage().rss);
    },
    onProblem: (text) => console.error(text),
    onCaughtUp: () => stop.abort(),
  });
  clearInterval(poll);
  const totalMs = Number(process.hrtime.bigint() - started) / 1e6;
  globalThis.gc?.();
  const mib = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
  state = reduce(state, { type: 'open' });
  const [, moveMs] = timed(() => reduce(state, { type: 'move', by: -1 }));
  const editing = reduce(reduce(state, { type: 'filter-start' }), { type: 'filter-edit', text: 'tool = "search" and latency > 500' });
  const [filtered, filterMs] = timed(() => reduce(editing, { type: 'filter-apply' }));
  const [, openMs] = timed(() => state.load(state.log.place(state.log.length - 1)));
  console.log(`recording:            ${mib(size)}, ${state.log.length} entries`);
  console.log(`first batch (screen): ${firstBatchMs?.toFixed(0)} ms`);
  console.log(`first screen drawn:   ${firstScreenMs?.toFixed(0)} ms (its rows made from the index and the file)`);
  console.log(`all read:             ${(totalMs / 1000).toFixed(1)} s (${(size / 1024 / 1024 / (totalMs / 1000)).toFixed(0)} MiB/s)`);
  console.log(
    `peak RSS:             ${mib(peak)} (after: ${mib(process.memoryUsage().rss)}, heap ${mib(process.memoryUsage().heapUsed)} of ${mib(process.memoryUsage().heapTotal)}, typed arrays ${mib(process.memoryUsage().arrayBuffers)})`,
  );
  console.log(`key (move):           ${moveMs.toFixed(2)} ms`);
  console.log(`filter over all:      ${filterMs.toFixed(0)} ms (${filtered.visible.length} shown)`);
  console.log(`open a frame:         ${openMs.toFixed(2)} ms (read again from the file)`);
  files.close();
  console.log(`new session seen:     ${(await liveLatency('session')).toFixed(0)} ms after its first line was written`);
  console.log(`new frame seen:       ${(await liveLatency('frame')).toFixed(0)} ms after it was written`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
