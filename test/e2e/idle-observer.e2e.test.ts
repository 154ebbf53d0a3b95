// With nothing to record, log or show, the spy starts no observer thread. Seen from outside as the
// spy's thread count (Linux /proc) against the same spy with its live view on: the two differ only in
// whether anything is observed, so neither writes files (no file-system thread pool in one only), and
// the one thread the observer takes is the whole difference. A debug line would only say what the spy
// believes; the count says what it did. Compared, never an absolute number: Node's own threads vary.
import { readFileSync } from 'node:fs';
import type { ChildProcess } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { freePort, run } from '../helpers/http-spy.js';
import { bin, node, runBin } from '../helpers/spy.js';

const threadsOf = (pid: number) => Number(/^Threads:\s+(\d+)$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]);

/** Runs the stdio spy over `cat`, and counts its threads once a line has come back through it. */
function stdioThreads(flags: string[]): Promise<number> {
  let threads = 0;
  let echoed = '';
  return runBin([...flags, '--no-record', '--no-log', '--', 'cat'], {
    onStart: (child: ChildProcess) => {
      child.stdout!.on('data', (chunk: Buffer) => {
        echoed += chunk.toString('utf8');
        if (!echoed.endsWith('\n') || threads > 0) return;
        threads = threadsOf(child.pid!);
        child.stdin!.end();
      });
      child.stdin!.write('{"jsonrpc":"2.0","id":1,"method":"ping"}\n');
    },
  }).then((result) => {
    expect(result.code).toBe(0);
    expect(result.text).toBe('{"jsonrpc":"2.0","id":1,"method":"ping"}\n');
    return threads;
  });
}

/** Runs the HTTP spy (nothing behind it is needed) and counts its threads once it listens. */
async function httpThreads(flags: string[]): Promise<number> {
  const target = `http://127.0.0.1:${await freePort()}/mcp`;
  const spy = await run(node, [bin, 'http', '--target', target, '--listen', '127.0.0.1:0', '--no-record', '--no-log', ...flags], /listening on (\S+),/);
  try {
    return threadsOf(spy.child.pid!);
  } finally {
    await spy.stop();
  }
}

describe.skipIf(process.platform !== 'linux')('nothing observed when nothing records, logs or shows', () => {
  it('the stdio spy starts no observer thread with --no-record --no-log --quiet', async () => {
    const [idle, live] = await Promise.all([stdioThreads(['--quiet']), stdioThreads([])]);
    expect(idle).toBeGreaterThan(0);
    expect(idle).toBeLessThan(live);
  });

  it('the HTTP spy starts no observer thread with --no-record --no-log --quiet', async () => {
    const [idle, live] = await Promise.all([httpThreads(['--quiet']), httpThreads([])]);
    expect(idle).toBeGreaterThan(0);
    expect(idle).toBeLessThan(live);
  });
});
