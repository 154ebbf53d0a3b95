// The ways the benchmark runs the line server: each a command line a client would start, and which of
// the processes it starts are "the spy" whose CPU and memory are measured.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { childrenNamed } from './proc-stats.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const node = process.execPath;
const bin = join(root, 'bin', 'mcp-spy.js');
const passThrough = join(root, 'bench', 'pass-through.js');
const lineServer = join(root, 'bench', 'line-server.js');
const nodeRecorders = join(root, 'bench', 'node-recorders.js');

/** The floors of a Node recorder (bench/node-recorders.js), run beside the spy with BENCH_FLOORS=1. */
export const floorSetups = ['node raw', 'node lines', 'node spans'];

/** Setups in table order; `spyPids(pid)` names the measured processes, given the spawned one. */
export function stdioSetups(dir, responseBytes, { floors = false } = {}) {
  const server = [node, lineServer, String(responseBytes)];
  const quoted = server.map((word) => `'${word}'`).join(' ');
  const floor = (name) => ({
    name,
    command: [node, nodeRecorders, name.split(' ')[1], join(dir, 'wire.jsonl'), ...server],
    spyPids: (pid) => [pid],
  });
  return [
    { name: 'direct', command: server, spyPids: () => [] },
    {
      name: 'tee',
      command: ['sh', '-c', `tee '${join(dir, 'in.log')}' | ${quoted} | tee '${join(dir, 'out.log')}'`],
      spyPids: (pid) => childrenNamed(pid, 'tee'),
    },
    { name: 'node pass', command: [node, passThrough, ...server], spyPids: (pid) => [pid] },
    {
      name: 'spy record',
      command: [node, bin, '-q', '--record', join(dir, 'wire.jsonl'), '--log', join(dir, 'wire.log'), '--', ...server],
      spyPids: (pid) => [pid],
      record: join(dir, 'wire.jsonl'),
    },
    {
      name: 'spy analyse',
      command: [node, bin, '-q', '--capture', 'never', '--record', join(dir, 'wire.jsonl'), '--log', join(dir, 'wire.log'), '--', ...server],
      spyPids: (pid) => [pid],
      record: join(dir, 'wire.jsonl'),
    },
    {
      name: 'spy lossless',
      command: [node, bin, '-q', '--lossless', '--record', join(dir, 'wire.jsonl'), '--log', join(dir, 'wire.log'), '--', ...server],
      spyPids: (pid) => [pid],
      record: join(dir, 'wire.jsonl'),
    },
    { name: 'spy no-rec', command: [node, bin, '-q', '--no-record', '--no-log', '--', ...server], spyPids: (pid) => [pid] },
    ...(floors ? floorSetups.map(floor) : []),
  ];
}
