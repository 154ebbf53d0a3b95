import { describe, expect, it } from 'vitest';
import { readRecording } from '../../src/record/open-recording.js';
import { summarizeLatency } from '../../src/review/percentiles.js';
import { createStatsCollector } from '../../src/review/stats.js';
import { formatStats } from '../../src/review/stats-format.js';
import { afterAll } from 'vitest';
import { tempDir } from '../helpers/spy.js';

const temp = tempDir('mcp-spy-stats-');
afterAll(() => temp.remove());

describe('latency percentiles', () => {
  it('uses the nearest rank', () => {
    const values = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(summarizeLatency(values)).toEqual({ p50: 50, p95: 95, p99: 99, max: 100 });
    expect(summarizeLatency([7])).toEqual({ p50: 7, p95: 7, p99: 7, max: 7 });
    expect(summarizeLatency([])).toBeUndefined();
  });
});

describe('stats of a 2026-07-28 capture', () => {
  const meta =
    '"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"sampling":{}},"io.modelcontextprotocol/clientInfo":{"name":"cli","version":"2.0.0"}}';
  const capture = [
    `-> {"jsonrpc":"2.0","id":"a","method":"server/discover","params":{${meta}}}`,
    '<- {"jsonrpc":"2.0","id":"a","result":{"supportedVersions":["2026-07-28"],"capabilities":{"tools":{}},"serverInfo":{"name":"srv","version":"3.1.0"}}}',
    `-> {"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"slow","arguments":{},${meta}}}`,
    `-> {"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"slow","arguments":{},${meta}}}`,
    '<- {"jsonrpc":"2.0","id":1,"result":{"content":[],"isError":true}}',
    '<- not json',
  ].join('\n');

  it('counts calls, errors, unanswered requests, invalid frames, and reads the peers from _meta and discover', async () => {
    const collector = createStatsCollector();
    for await (const { entry } of readRecording(temp.file('c.log', capture))) collector.add(entry);
    const stats = collector.result();
    expect(stats.tools.slow).toEqual({ count: 2, protocolErrors: 0, toolErrors: 1 });
    expect(stats.unanswered).toEqual([{ session: 'capture', seq: 4, dir: 'c2s', id: 2, method: 'tools/call', tool: 'slow' }]);
    expect(stats.invalid).toEqual({ count: 1, notes: { 'stdout-noise': 1, 'not-json': 1 } });
    expect(stats.sessions).toEqual([
      {
        session: 'capture',
        revision: '2026-07-28',
        client: { name: 'cli', version: '2.0.0' },
        server: { name: 'srv', version: '3.1.0' },
        clientCapabilities: { sampling: {} },
        serverCapabilities: { tools: {} },
      },
    ]);
    const text = formatStats(stats, 'text');
    expect(text).toContain('Unanswered requests: 1\n  #2 tools/call tool=slow (c2s, seq 4, session capture)');
    expect(text).toContain('Invalid frames: 1 (stdout-noise 1, not-json 1)');
    expect(formatStats(stats, 'markdown')).toContain('| capture | 2026-07-28 | cli 2.0.0 | srv 3.1.0 | sampling | tools |');
  });
});
