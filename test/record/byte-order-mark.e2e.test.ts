import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { entryLine, writeRecording } from '../helpers/record-lines.js';
import { fixture, node, runBin, tempDir } from '../helpers/spy.js';

// Issue 8: a recording saved by an editor that starts files with a UTF-8 byte order mark was refused.
const temp = tempDir();
afterAll(() => temp.remove());

const BOM = '\ufeff';
const call = { id: 1, method: 'tools/call', params: { name: 'echo', arguments: { text: 'hi' } } };
const recordText = [
  entryLine(1, { dir: 'c2s', kind: 'request', method: 'tools/call', tool: 'echo', id: 1 }, call),
  entryLine(2, { dir: 's2c', kind: 'response', method: 'tools/call', tool: 'echo', id: 1, latencyMs: 3 }, { id: 1, result: call.params }),
].join('');

async function withBom(name: string, text: string): Promise<string> {
  const path = join(temp.dir, name);
  await writeRecording(path, [BOM + text]);
  return path;
}

describe('a recording that starts with a byte order mark', () => {
  it('is read by view, stats and check as if it had none', async () => {
    const record = await withBom('bom.jsonl', recordText);
    const view = await runBin(['view', record, '--strict']);
    expect(view.stderr).toBe('');
    expect(view.text).toMatch(/^\S+ -> request +tools\/call #1 tool=echo \{"arguments":\{"text":"hi"\}\}\n\S+ <- response +tools\/call #1 tool=echo 3ms/);
    const stats = await runBin(['stats', record, '--strict', '--format', 'json']);
    expect(stats.stderr).toBe('');
    expect(JSON.parse(stats.text)).toMatchObject({ entries: 2, frames: 2, tools: { echo: { count: 1 } } });
    const check = await runBin(['check', record, '--strict']);
    expect(check.stderr).toBe('');
    expect(check.text).toContain('2 entries');
  });

  it('is replayed and mocked', async () => {
    const record = await withBom('replay.jsonl', recordText);
    const replayed = await runBin(['replay', record, '--', node, fixture('servers', 'echo-server.js')]);
    expect(replayed.stderr).toBe('');
    expect(replayed.text).toMatch(/^replay passed: 1 same, 0 changed, 0 missing, 0 extra in \d+ms$/m);
    expect(replayed.code).toBe(0);
    const mocked = await runBin(['mock', record], { input: `${JSON.stringify({ jsonrpc: '2.0', ...call, id: 5 })}\n` });
    expect(mocked.stderr).toBe('');
    expect(JSON.parse(mocked.text)).toEqual({ jsonrpc: '2.0', id: 5, result: call.params });
  });

  it('is read as a plain capture too', async () => {
    const capture = await withBom(
      'capture.log',
      `-> ${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' })}\n<- ${JSON.stringify({ jsonrpc: '2.0', id: 1, result: {} })}\n`,
    );
    const view = await runBin(['view', capture, '--strict']);
    expect(view.stderr).toBe('');
    expect(view.text).toMatch(/-> request +ping #1\n.*<- response +ping #1\n$/);
  });
});
