#!/usr/bin/env node
// Benchmark: `mcp-spy ui` itself, in a real terminal (tmux, 120x40), as a person runs it.
//  1. A generated recording (default 1 GiB): the time from starting the console to its first screen
//     (the session listed), the time until it has read the whole file, its peak RSS (VmHWM), and how
//     long a key then takes to show (Enter, k).
//  2. A flood: 20,000 frames a second appended to a record the console follows, by another process;
//     how long a key (k stops following, f follows again) takes to show on the screen meanwhile.
// A key's time is from tmux sending it to `capture-pane` showing its effect, so it includes tmux's
// round trips (the screen is read every few milliseconds). Needs tmux.
// Usage: node bench/ui-terminal.js [size in MiB, default 1024] [flood seconds, default 5]
import { execFileSync, spawn } from 'node:child_process';
import { appendFileSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { recordLines, writeRecord } from './ui-record.js';

const self = fileURLToPath(import.meta.url);

/** The terminals started, each killed (again) at the end, whatever happened. */
const terminals = [];

function terminal(dir, command) {
  const socket = join(dir, `tmux-${Math.random().toString(36).slice(2)}`);
  const tmux = (...args) => execFileSync('tmux', ['-S', socket, '-f', '/dev/null', ...args], { encoding: 'utf8' });
  tmux('new-session', '-d', '-x', '120', '-y', '40', command);
  let gone = false;
  const screen = () => tmux('capture-pane', '-p', '-t', '0');
  const opened = {
    screen,
    pid: () => Number(tmux('display-message', '-p', '-t', '0', '#{pane_pid}').trim()),
    keys: (...keys) => tmux('send-keys', '-t', '0', ...keys),
    /** Waits until the screen matches; the milliseconds since `from`. */
    async until(pattern, from = process.hrtime.bigint(), timeout = 120_000) {
      for (;;) {
        if (pattern.test(screen())) return Number(process.hrtime.bigint() - from) / 1e6;
        if (Number(process.hrtime.bigint() - from) / 1e6 > timeout) throw new Error(`the screen never showed ${pattern}:\n${screen()}`);
        await sleep(2);
      }
    },
    /** Sends a key and waits for what it shows: the milliseconds between. */
    async key(key, pattern) {
      const from = process.hrtime.bigint();
      tmux('send-keys', '-t', '0', key);
      return this.until(pattern, from, 30_000);
    },
    kill: () => {
      if (!gone) tmux('kill-server');
      gone = true;
    },
  };
  terminals.push(opened);
  return opened;
}

const quote = (text) => `'${text.replace(/'/g, `'\\''`)}'`;
const bin = fileURLToPath(new URL('../bin/mcp-spy.js', import.meta.url));
const consoleOn = (record) => `exec ${quote(process.execPath)} ${quote(bin)} ui ${quote(record)}`;
/** Figures of a process from /proc: peak RSS in MiB, bytes read. */
const rssPeak = (pid) => Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;
const bytesRead = (pid) => Number(/rchar:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/io`, 'utf8'))[1]);
const summary = (times) => {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))].toFixed(0);
  return `p50 ${at(0.5)} ms, p95 ${at(0.95)} ms, max ${sorted.at(-1).toFixed(0)} ms (${times.length} keys)`;
};

async function main() {
  const sizeMiB = Number(process.argv[2] ?? 1024);
  const floodSeconds = Number(process.argv[3] ?? 5);
  const dir = mkdtempSync(join(tmpdir(), 'mcp-spy-bench-ui-terminal-'));
  let writer;
  try {
    // What starting costs on this machine now (node, the console's modules, Ink): the console on nothing.
    const bare = process.hrtime.bigint();
    const empty = terminal(dir, consoleOn(mkdtempSync(join(dir, 'empty-'))));
    const emptyScreen = await empty.until(/no sessions yet/, bare);
    empty.kill();
    const record = join(dir, 'wire.jsonl');
    const entries = await writeRecord(record, sizeMiB);
    const size = statSync(record).size;
    const started = process.hrtime.bigint();
    const big = terminal(dir, consoleOn(record));
    const firstScreen = await big.until(/all sessions, merged/, started);
    const pid = big.pid();
    while (bytesRead(pid) < size) await sleep(20);
    const allRead = Number(process.hrtime.bigint() - started) / 1e6;
    const open = await big.key('Enter', /^frames · .*frame \d+\/\d+/);
    const up = await big.key('k', /^frames · .*frame \d+\/\d+\n/);
    console.log(`machine:               load average ${loadavg()[0].toFixed(1)} on ${availableParallelism()} cores`);
    console.log(`first screen, no file: ${emptyScreen.toFixed(0)} ms from starting mcp-spy ui on an empty directory (node and Ink starting)`);
    console.log(`recording:             ${(size / 1024 / 1024).toFixed(1)} MiB, ${entries} entries`);
    console.log(`first screen:          ${firstScreen.toFixed(0)} ms from starting mcp-spy ui (node, Ink and the first batch)`);
    console.log(`all read:              ${(allRead / 1000).toFixed(1)} s`);
    console.log(`peak RSS (VmHWM):      ${rssPeak(pid).toFixed(1)} MiB`);
    console.log(`keys then:             Enter ${open.toFixed(0)} ms, k ${up.toFixed(0)} ms (sent to shown)`);
    big.kill();

    // The flood: 200 frames every 10 ms from another process, to a record the console follows.
    const flood = join(dir, 'flood.jsonl');
    writeFileSync(flood, '');
    const frames = recordLines('calm');
    const live = terminal(dir, consoleOn(flood));
    await live.until(/no sessions yet/);
    live.keys('Enter');
    await live.until(/^frames/m);
    // The same keys with no flood first (a few frames there to move among): what the machine gives now.
    appendFileSync(flood, [...Array(50)].map(() => frames.next().value).join(''));
    await live.until(/frame 50\/50 · FOLLOW/);
    const calm = [];
    for (let i = 0; i < 8; i++) {
      calm.push(await live.key('k', /^frames · all sessions \(\d+\) · frame \d+\/\d+\n/));
      calm.push(await live.key('f', /^frames · .* · FOLLOW/));
    }
    writer = spawn(process.execPath, [self, '--flood-writer', flood, '200'], { stdio: ['ignore', 'pipe', 'inherit'] });
    let report = '';
    writer.stdout.on('data', (chunk) => (report += chunk));
    await live.until(/frame \d{4,}\/\d+ · FOLLOW/);
    const times = [];
    const until = Date.now() + floodSeconds * 1000;
    while (Date.now() < until) {
      // k stops following (the header loses FOLLOW); f follows again.
      times.push(await live.key('k', /^frames · all sessions \(\d+\) · frame \d+\/\d+\n/));
      times.push(await live.key('f', /^frames · .* · FOLLOW/));
    }
    const peak = rssPeak(live.pid());
    writer.kill('SIGTERM');
    await new Promise((resolve) => writer.on('close', resolve));
    const { written, seconds } = JSON.parse(report);
    live.kill();
    console.log(
      `flood:                 ${written} frames in ${seconds.toFixed(1)} s (${(written / seconds).toFixed(0)} frames/s) appended while keys were sent`,
    );
    console.log(`keys with no flood:    ${summary(calm)} (sent to shown)`);
    console.log(`keys under the flood:  ${summary(times)} (sent to shown)`);
    console.log(`peak RSS (flood):      ${peak.toFixed(1)} MiB`);
  } finally {
    writer?.kill('SIGKILL');
    for (const open of terminals) open.kill();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The flood's writer: `perTick` frames every 10 ms appended to a file, until SIGTERM; then what it wrote. */
function floodWriter(file, perTick) {
  const lines = recordLines('flood');
  let written = 0;
  const started = Date.now();
  const tick = setInterval(() => {
    let batch = '';
    for (let i = 0; i < perTick; i++) batch += lines.next().value;
    appendFileSync(file, batch);
    written += perTick;
  }, 10);
  process.on('SIGTERM', () => {
    clearInterval(tick);
    process.stdout.write(`${JSON.stringify({ written, seconds: (Date.now() - started) / 1000 })}\n`);
    process.exit(0);
  });
}

// The flood's writer runs as a process of its own, so that reading the screen never holds it up.
if (process.argv[2] === '--flood-writer') floodWriter(process.argv[3], Number(process.argv[4]));
else await main();
