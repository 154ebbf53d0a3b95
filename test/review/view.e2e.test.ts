import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordEverything } from '../helpers/recordings.js';
import { runBinSync, tempDir } from '../helpers/spy.js';

const temp = tempDir('mcp-spy-view-');
let record: string;
let log: string;

beforeAll(async () => {
  ({ record, log } = await recordEverything(temp.dir));
});
afterAll(() => temp.remove());

const lines = (text: string) => text.split('\n').filter((line) => line !== '');

describe('view, on a real recording (SDK client, server-everything, stdio)', () => {
  it('prints exactly the wire.log written live', () => {
    const result = runBinSync(['view', record]);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).toEqual(readFileSync(log));
  });

  it('filters by kind and method, keeping the wire.log lines as they are', () => {
    const logLines = lines(readFileSync(log, 'utf8'));
    const result = runBinSync(['view', record, '--kind', 'request,response', '--method', 'tools/call']);
    const shown = lines(result.text);
    expect(shown.length).toBeGreaterThan(6);
    for (const line of shown) {
      expect(logLines).toContain(line);
      expect(line).toMatch(/ (request|response) +tools\/call /);
    }
  });

  it('selects a request with its response and progress by --id', () => {
    const entries = lines(readFileSync(record, 'utf8')).map((line) => JSON.parse(line));
    const call = entries.find((entry) => entry.tool === 'trigger-long-running-operation' && entry.kind === 'request');
    const result = runBinSync(['view', record, '--id', String(call.id), '--format', 'jsonl']);
    const kinds = lines(result.text).map((line) => JSON.parse(line).kind);
    expect(kinds).toEqual(['request', 'notification', 'notification', 'response']);
  });

  it('takes a filter expression', () => {
    const result = runBinSync(['view', record, '--format', 'jsonl', '--filter', '(tool = "get-*" or method = "ping") and not kind = request']);
    const shown = lines(result.text).map((line) => JSON.parse(line));
    expect(shown.length).toBeGreaterThan(2);
    for (const entry of shown) {
      expect(entry.kind).not.toBe('request');
      expect(entry.tool?.startsWith('get-') || entry.method === 'ping').toBe(true);
    }
  });

  it('prints json as one array and jsonl as the record itself', () => {
    const json = JSON.parse(runBinSync(['view', record, '--format', 'json']).text);
    const original = lines(readFileSync(record, 'utf8')).map((line) => JSON.parse(line));
    expect(json).toEqual(original);
    expect(lines(runBinSync(['view', record, '--format', 'jsonl']).text).map((line) => JSON.parse(line))).toEqual(original);
  });

  it('shows frames in full under their lines with --full', () => {
    const result = runBinSync(['view', record, '--method', 'tools/call', '--tool', 'get-sum', '--full']);
    expect(result.text).toContain('\n    {\n      "method": "tools/call",');
    expect(result.text).toContain('"text": "The sum of 2 and 3 is 5."');
  });
});

describe('stats and check, on the same real recording', () => {
  it('checks clean', () => {
    const result = runBinSync(['check', record]);
    expect(result.text).toMatch(/clean \(0 errors, 0 warnings/);
    expect(result.code).toBe(0);
  });

  it('gives counts, latency, peers and capabilities', () => {
    const stats = JSON.parse(runBinSync(['stats', record, '--format', 'json']).text);
    expect(stats.methods['tools/call'].count).toBeGreaterThanOrEqual(7);
    expect(stats.methods['tools/call'].latency.max).toBeGreaterThan(100);
    expect(stats.tools['get-sum']).toMatchObject({ count: 1, protocolErrors: 0, toolErrors: 0 });
    expect(stats.unanswered).toEqual([]);
    expect(stats.sessions).toHaveLength(1);
    expect(stats.sessions[0]).toMatchObject({ revision: '2025-11-25', client: { name: 'fixture-client', version: '1.0.0' } });
    expect(stats.sessions[0].server.name).toBe('mcp-servers/everything');
    expect(Object.keys(stats.sessions[0].serverCapabilities)).toContain('tools');
    expect(Object.keys(stats.sessions[0].clientCapabilities)).toEqual(['sampling', 'roots', 'elicitation']);
    const markdown = runBinSync(['stats', record, '--format', 'markdown']).text;
    expect(markdown).toContain('| tools/call |');
    expect(markdown).toContain('| method | count | protocol errors | tool errors | p50 ms | p95 ms | p99 ms | max ms |');
  });
});
