import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lineConversation } from '../helpers/conversation.js';
import { fixture, framesOf, readEntries, runBin, tempDir } from '../helpers/spy.js';

describe('a classic exchange with a time server, sent by hand', () => {
  it('classifies every frame and names the error codes', async () => {
    const dir = tempDir().dir;
    const answers: unknown[] = [];
    const result = await runBin(['--', process.execPath, fixture('servers', 'time-server.js')], {
      cwd: dir,
      onStart: (child) => {
        const talk = lineConversation(child);
        void (async () => {
          answers.push(
            await talk.request({
              jsonrpc: '2.0',
              id: 0,
              method: 'initialize',
              params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'hand', version: '1' } },
            }),
          );
          talk.notify({ jsonrpc: '2.0', method: 'notifications/initialized' });
          answers.push(await talk.request({ jsonrpc: '2.0', id: 1, method: 'tools/list' }));
          answers.push(
            await talk.request({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'get_current_time', arguments: { timezone: 'Mars/Olympus' } } }),
          );
          answers.push(await talk.request({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'get_weather', arguments: {} } }));
          answers.push(await talk.request({ jsonrpc: '2.0', id: 4, method: 'tools/fly' }));
          talk.end();
        })();
      },
    });
    expect(result.code).toBe(0);
    expect(answers).toHaveLength(5);
    const seen = framesOf(readEntries(join(dir, 'wire.jsonl')));
    expect(seen.map((entry) => entry.kind)).toEqual([
      'request',
      'response',
      'notification',
      'request',
      'response',
      'request',
      'tool-error',
      'request',
      'tool-error',
      'request',
      'protocol-error',
    ]);
    expect(seen[8]).toMatchObject({ method: 'tools/call', tool: 'get_weather' });
    expect(seen[10]).toMatchObject({ method: 'tools/fly', error: { code: -32601 }, errorName: 'Method not found' });
    expect(seen.every((entry) => entry.rev === '2025-06-18')).toBe(true);
    const log = readFileSync(join(dir, 'wire.log'), 'utf8');
    expect(log).toMatch(/<- proto-error +tools\/fly #4 [\d.]+ms -32601 Method not found/);
    expect(log).toContain('"Unknown tool: get_weather"');
    expect(log.split('\n').filter((line) => line.includes(' -> ')).length).toBe(6);
    // The live view on stderr shows the same lines as wire.log (no colour when FORCE_COLOR=0).
    expect(result.stderr).toContain(log.split('\n').find((line) => line.includes('tools/fly #4 '))!);
  });
});
