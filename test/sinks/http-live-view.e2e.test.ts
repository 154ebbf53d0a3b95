// What the live view, wire.log and the record show of HTTP sessions: time order, routine events
// kept in the record only, and what the spy answered itself.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { everythingHttp, eventually, freePort, recordHttp, run } from '../helpers/http-spy.js';
import { bin, node, readEntries, runBinSync, tempDir, type TestEntry } from '../helpers/spy.js';

describe('an HTTP session in wire.log and the record', () => {
  const session = { entries: [] as TestEntry[], record: '', logText: '' };
  beforeAll(async () => {
    const { dir } = tempDir();
    const { record, log } = await recordHttp(dir, '/mcp', everythingHttp('streamableHttp'), { script: 'everything-client.js', flag: '--url' });
    Object.assign(session, { entries: readEntries(record), record, logText: readFileSync(log, 'utf8') });
  });

  it('reads in time order: each http event at the time of its exchange', () => {
    const times = session.entries.map((entry) => entry.t);
    expect(times).toEqual([...times].sort());
    const logTimes = session.logText
      .trimEnd()
      .split('\n')
      .map((text) => text.slice(0, 12));
    expect(logTimes).toEqual([...logTimes].sort());
  });

  it('has no line per SSE priming event or plain 202, which stay in the record', () => {
    const { entries, logText, record } = session;
    const priming = entries.filter((entry) => entry.kind === 'http' && String(entry.summary).startsWith('SSE priming event'));
    const accepted = entries.filter((entry) => entry.kind === 'http' && entry.status === 202);
    expect(priming.length).toBeGreaterThan(3);
    expect(accepted.length).toBeGreaterThan(0);
    expect(logText).not.toContain('priming');
    expect(logText).not.toContain('202 Accepted');
    // One line per frame and per event that says something, and nothing else.
    expect(logText.trimEnd().split('\n')).toHaveLength(entries.length - priming.length - accepted.length);
    expect(runBinSync(['view', record]).text).toBe(logText);
    expect(runBinSync(['view', record, '--full']).text).toContain('SSE priming event');
  });
});

describe('a 502 the spy made', () => {
  it("is marked as the spy's own answer in the live view and wire.log", async () => {
    const { dir } = tempDir();
    const port = await freePort();
    const spy = await run(node, [bin, 'http', '--target', `http://127.0.0.1:${port}/mcp`], /listening on (\S+),/, { cwd: dir, env: { FORCE_COLOR: '0' } });
    try {
      const response = await fetch(spy.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'tools/list' }),
      });
      expect(response.status).toBe(502);
      const live = await eventually(() =>
        spy
          .stderr()
          .split('\n')
          .find((text) => text.includes('proto-error')),
      );
      expect(live).toMatch(/<- proto-error tools\/list #5 [\d.]+ms -32603 Internal error: Bad Gateway: .*ECONNREFUSED.* \(from mcp-spy\)$/);
    } finally {
      await spy.stop();
    }
    const logLine = readFileSync(join(dir, 'wire.log'), 'utf8')
      .split('\n')
      .find((text) => text.includes('proto-error'));
    expect(logLine).toContain('(from mcp-spy)');
    expect(readEntries(join(dir, 'wire.jsonl')).find((entry) => entry.kind === 'protocol-error')).toMatchObject({ origin: 'spy' });
  });
});
