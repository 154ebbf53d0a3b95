import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readRecord } from '../helpers/faults.js';
import { freePort, startSpy } from '../helpers/http-spy.js';
import { fixture, node } from '../helpers/spy.js';

describe('the HTTP spy stopping', () => {
  it('a second stop signal while it finishes (a server slow to stop) does not kill it: exit 0, the record ends with the exit', async () => {
    const port = await freePort();
    const spy = await startSpy(['--target', `http://127.0.0.1:${port}/mcp`], [node, fixture('faults', 'slow-stop-http.js'), String(port)]);
    spy.child.kill('SIGTERM');
    setTimeout(() => spy.child.kill('SIGTERM'), 300);
    const code = await spy.exited;
    expect(spy.child.signalCode).toBeNull();
    expect(code).toBe(0);
    expect(readRecord(join(spy.dir, 'wire.jsonl')).at(-1)).toMatchObject({ kind: 'exit', code: 0 });
    await spy.dispose();
  });
});
