import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterEach, describe, expect, it } from 'vitest';
import { bin, fixture, framesOf, node, readEntries, tempDir } from '../helpers/spy.js';
import { frameText } from '../../src/record/frame-message.js';

const key = 'sk-live-4f9a0c2e7b1d';

describe('--redact on the stdio spy', () => {
  const dirs: { remove: () => void }[] = [];
  afterEach(() => dirs.splice(0).forEach((dir) => dir.remove()));

  it('keeps a tool argument out of the record and the log, wherever it turns up, while the traffic keeps it', async () => {
    const dir = tempDir();
    dirs.push(dir);
    const record = join(dir.dir, 'wire.jsonl');
    const log = join(dir.dir, 'wire.log');
    const transport = new StdioClientTransport({
      command: node,
      args: [bin, '--redact', 'params.arguments.apiKey', '--record', record, '--log', log, '-q', '--', node, fixture('servers', 'key-server.js')],
      env: { ...process.env, FORCE_COLOR: '0' } as Record<string, string>,
      stderr: 'pipe',
    });
    const client = new Client({ name: 'redact', version: '1.0.0' });
    await client.connect(transport);
    const result = await client.callTool({ name: 'weather', arguments: { city: 'Oslo', apiKey: key } });
    await client.close();

    // The server got the key and said it back: the traffic is untouched.
    expect(JSON.stringify(result)).toContain(key);
    const recordText = readFileSync(record, 'utf8');
    const logText = readFileSync(log, 'utf8');
    expect(recordText).not.toContain(key);
    expect(logText).not.toContain(key);
    expect(logText).toContain('"apiKey":"[redacted]"');

    const frames = framesOf(readEntries(record));
    const call = frames.find((entry) => entry.method === 'tools/call' && entry.kind === 'request')!;
    expect(call.redacted).toEqual(["$['params']['arguments']['apiKey']"]);
    // bytes is the size on the wire: the SDK writes JSON.stringify, so the key's length stands where [redacted] is.
    expect(call.bytes).toBe(Buffer.byteLength(String(frameText(call))) - '[redacted]'.length + key.length);
    const answer = frames.find((entry) => entry.method === 'tools/call' && entry.kind === 'response')!;
    expect(answer.redacted).toEqual(["$['result']['content'][0]['text']"]);
    expect(frameText(answer)).toContain('(asked with key [redacted])');
    const stderr = readEntries(record).find((entry) => entry.kind === 'stderr');
    expect(stderr).toMatchObject({ raw: 'weather for Oslo with key [redacted]', redacted: ['$'] });
  });
});
