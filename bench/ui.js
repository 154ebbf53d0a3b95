#!/usr/bin/env node
// Benchmark: the console (mcp-spy ui) opening a generated recording, without a terminal: its sources
// and reducer as `ui` runs them. Prints the time to the first batch (the first screen), the time to
// read it all, the peak RSS, and how long a key (a move, a filter over every entry) takes then.
// Usage: node --expose-gc bench/ui.js [size in MiB, default 1024]
import { appendFileSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tuneHeapForConsole } from '../dist/ui/heap.js';
import { recordLines as lines, writeRecord } from './ui-record.js';

// As `mcp-spy ui` does, before the console allocates.
tuneHeapForConsole();
const { reduce } = await import('../dist/ui/reducer.js');
const { createFileLoader, followSources } = await import('../dist/ui/sources.js');
const { initialState } = await import('../dist/ui/state.js');

const sizeMiB = Number(process.argv[2] ?? 1024);
const dir = mkdtempSync(join(tmpdir(), 'mcp-spy-bench-ui-'));
const record = join(dir, 'wire.jsonl');

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
  await writeRecord(record, sizeMiB);
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
