import { describe, expect, it } from 'vitest';
import { request } from '../helpers/faults.js';
import { runBin } from '../helpers/spy.js';

describe("the server's stdio", () => {
  it('are pipes, as a shell gives them: fstat says FIFO, and /dev/stdin can be opened', async () => {
    const script = 'for f in stdin stdout stderr; do test -p /dev/$f && echo "$f is a pipe" >&2; done; echo ready >&2; cat /dev/stdin';
    const result = await runBin(['-q', '--no-record', '--no-log', '--', 'sh', '-c', script], {
      onStart: (child) => {
        // The word may come split over two chunks: what came so far is looked at, not the last chunk alone.
        let seen = '';
        let sent = false;
        child.stderr!.on('data', (chunk: Buffer) => {
          seen += chunk.toString();
          if (!sent && seen.includes('ready') && child.stdin!.writable) {
            sent = true;
            child.stdin!.write(request(1));
          }
        });
        // Stdin ends only once cat has echoed the line: cat opens /dev/stdin after 'ready', and opening a
        // pipe that has no writer left waits for one for ever (as it would without the spy, end for end).
        let echoed = '';
        child.stdout!.on('data', (chunk: Buffer) => {
          echoed += chunk.toString();
          if (echoed.includes('\n') && child.stdin!.writable) child.stdin!.end();
        });
      },
    });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('stdin is a pipe\nstdout is a pipe\nstderr is a pipe\n');
    expect(result.text).toBe(request(1));
  });
});
