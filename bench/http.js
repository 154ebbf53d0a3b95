#!/usr/bin/env node
// The HTTP spy's benchmark: tools/call through `mcp-spy http` against direct, with JSON and with SSE
// responses, 1 and 16 concurrent clients (one session each), and the time to the first SSE event.
// Usage: npm run bench:http [-- --seconds 2] [--modes json,sse]   (each figure: the median of 3 alternating runs)
// On Linux each row also says how much CPU the spy used per call (median), in all and on the thread
// that forwards (the rest is the observer thread recording).
// BENCH_NO_RECORD=1 runs the spy with --no-record --no-log, to see what recording costs.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const secondsAt = process.argv.indexOf('--seconds');
const seconds = secondsAt === -1 ? 2 : Number(process.argv[secondsAt + 1]);
const children = [];

/** CPU time (user + system, ms) a process, or one of its threads, has used; undefined off Linux. */
function cpuMs(pid, tid) {
  try {
    const stat = readFileSync(tid === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${tid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10; // clock ticks of 10 ms
  } catch {
    return undefined;
  }
}

/** Starts a process and resolves with the first match of `ready` on its stdout. */
function start(args, ready, cwd) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd, stdio: ['ignore', 'pipe', 'inherit'] });
    children.push(child);
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const match = ready.exec(out);
      if (match) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}`)));
  });
}

/** One POST; resolves with status, headers, body and the time the first body bytes came. */
function post(url, agent, body, session) {
  return new Promise((resolve, reject) => {
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' };
    if (session) headers['mcp-session-id'] = session;
    const sentAt = performance.now();
    const req = request(url, { method: 'POST', agent, headers }, (res) => {
      const chunks = [];
      let firstAt;
      res.on('data', (chunk) => {
        firstAt ??= performance.now();
        chunks.push(chunk);
      });
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks).toString(), sentAt, firstAt, endAt: performance.now() }));
    });
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

async function openSession(url, agent) {
  const init = await post(url, agent, {
    jsonrpc: '2.0', id: 0, method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench', version: '1' } },
  });
  const session = init.headers['mcp-session-id'];
  await post(url, agent, { jsonrpc: '2.0', method: 'notifications/initialized' }, session);
  return session;
}

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))];

/** `clients` sessions calling tools/call as fast as they can for `seconds`; with `pid`, the CPU it used per call. */
async function load(url, clients, pid) {
  const latencies = [];
  const sessions = await Promise.all(Array.from({ length: clients }, async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    return { agent, session: await openSession(url, agent) };
  }));
  const before = pid === undefined ? undefined : [cpuMs(pid), cpuMs(pid, pid)];
  const until = performance.now() + seconds * 1000;
  await Promise.all(sessions.map(async ({ agent, session }) => {
    for (let id = 1; performance.now() < until; id++) {
      const result = await post(url, agent, { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'echo', arguments: { message: `m${id}` } } }, session);
      if (result.status !== 200 || !result.body.includes(`m${id}`)) throw new Error(`bad answer: ${result.status} ${result.body.slice(0, 200)}`);
      latencies.push(result.endAt - result.sentAt);
    }
  }));
  for (const { agent } of sessions) agent.destroy();
  latencies.sort((a, b) => a - b);
  const result = { rps: latencies.length / seconds, p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
  if (before?.[0] !== undefined) {
    // Microseconds of CPU per call: the whole spy process, and its forwarding (main) thread alone.
    result.cpu = (1000 * (cpuMs(pid) - before[0])) / latencies.length;
    result.mainCpu = (1000 * (cpuMs(pid, pid) - before[1])) / latencies.length;
  }
  return result;
}

/** Median time from sending a slow tools/call to its first SSE event (a progress notification). */
async function firstEvent(url, runs) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const session = await openSession(url, agent);
  const times = [];
  for (let id = 1; id <= runs; id++) {
    const body = { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'slow-progress', arguments: {}, _meta: { progressToken: id } } };
    const result = await post(url, agent, body, session);
    times.push(result.firstAt - result.sentAt);
  }
  agent.destroy();
  times.sort((a, b) => a - b);
  return percentile(times, 50);
}

const fixed = (value, digits = 1) => value.toFixed(digits);
const rounds = 3;
const medianOf = (values) => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)];
const median = (results) => [...results].sort((x, y) => x.rps - y.rps)[Math.floor(results.length / 2)];

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-spy-bench-'));
  const server = join(root, 'fixtures', 'http', 'tool-server.js');
  const spyBin = join(root, 'bin', 'mcp-spy.js');
  const rows = [];
  try {
    const modesAt = process.argv.indexOf('--modes');
    const modes = modesAt === -1 ? ['json', 'sse'] : process.argv[modesAt + 1].split(',');
    for (const mode of modes) {
      const port = await start([server, ...(mode === 'json' ? ['--json'] : [])], /listening on (\d+)/);
      const direct = `http://127.0.0.1:${port}/mcp`;
      const spied = await start([spyBin, 'http', '--quiet', '--target', direct, ...(process.env.BENCH_NO_RECORD ? ['--no-record', '--no-log'] : ['--record', join(dir, `${mode}.jsonl`), '--log', join(dir, `${mode}.log`)])], /listening on (\S+),/, dir);
      const spyPid = children.at(-1).pid;
      for (const clients of [1, 16]) {
        await load(direct, clients); // warm-up
        await load(spied, clients);
        // The machine may be shared: alternate direct and spy runs and keep the median of each.
        const runs = { direct: [], spy: [] };
        for (let round = 0; round < rounds; round++) {
          runs.direct.push(await load(direct, clients));
          runs.spy.push(await load(spied, clients, spyPid));
        }
        const a = median(runs.direct);
        const b = median(runs.spy);
        rows.push({ mode, clients, direct: a, spy: b });
        console.log(
          `tools/call ${mode.padEnd(4)} ${String(clients).padStart(2)} client(s): direct ${fixed(a.rps, 0)} req/s p50 ${fixed(a.p50, 2)} ms p99 ${fixed(a.p99, 2)} ms | ` +
            `spy ${fixed(b.rps, 0)} req/s p50 ${fixed(b.p50, 2)} ms p99 ${fixed(b.p99, 2)} ms | throughput ${fixed((100 * b.rps) / a.rps)}% of direct, p50 +${fixed(b.p50 - a.p50, 2)} ms` +
            (b.cpu === undefined ? '' : ` | spy CPU per call ${fixed(medianOf(runs.spy.map((r) => r.cpu)), 0)} µs, forwarding thread ${fixed(medianOf(runs.spy.map((r) => r.mainCpu)), 0)} µs`),
        );
      }
      if (mode === 'sse') {
        const a = await firstEvent(direct, 5);
        const b = await firstEvent(spied, 5);
        console.log(`first SSE event: direct ${fixed(a, 2)} ms, spy ${fixed(b, 2)} ms (+${fixed(b - a, 2)} ms)`);
      }
    }
    const worst = Math.min(...rows.filter((row) => row.clients === 16).map((row) => row.spy.rps / row.direct.rps));
    console.log(`target: at 16 clients at least 70% of direct throughput; worst here ${fixed(100 * worst)}% ${worst >= 0.7 ? '(met)' : '(NOT met)'}`);
  } finally {
    for (const child of children) child.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  for (const child of children) child.kill('SIGTERM');
  process.exitCode = 1;
});
