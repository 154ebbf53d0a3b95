#!/usr/bin/env node
// Benchmark: `mcp-spy report` of generated recordings, opened in headless Chromium (Debian's
// `chromium`). For each: the report's size against the record's, and the time from navigation to the
// page saying it is drawn (the page's own clock), median of N openings in fresh pages.
// Usage: node bench/report.js [openings, default 5]
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { median } from './figures.js';

const openings = Number(process.argv[2] ?? 5);
const bin = fileURLToPath(new URL('../bin/mcp-spy.js', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'mcp-spy-bench-report-'));
const t0 = Date.parse('2026-07-28T10:00:00.000Z');

/** A v2 record of request/response pairs; `answer(id)` is each response's result. */
function record(name, pairs, answer) {
  const lines = [];
  let seq = 0;
  const t = () => new Date(t0 + seq * 3).toISOString();
  for (let id = 1; id <= pairs; id++) {
    const tool = `tool-${id % 7}`;
    const request = { method: 'tools/call', params: { name: tool, arguments: { query: `question ${id}` } }, jsonrpc: '2.0', id };
    lines.push({
      v: 2,
      seq: ++seq,
      t: t(),
      session: 's1',
      dir: 'c2s',
      kind: 'request',
      method: 'tools/call',
      tool,
      id,
      rev: '2025-11-25',
      bytes: JSON.stringify(request).length,
      msg: request,
    });
    const response = { jsonrpc: '2.0', id, result: answer(id) };
    const kind = response.result.isError ? 'tool-error' : 'response';
    lines.push({
      v: 2,
      seq: ++seq,
      t: t(),
      session: 's1',
      dir: 's2c',
      kind,
      method: 'tools/call',
      tool,
      id,
      rev: '2025-11-25',
      latencyMs: 3,
      related: { seq: seq - 1, id, method: 'tools/call', tool },
      bytes: JSON.stringify(response).length,
      msg: response,
    });
  }
  const path = join(dir, `${name}.jsonl`);
  writeFileSync(path, `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`);
  return path;
}

const html = '<div class="card"><p>answer <b>bold</b> &amp; <a href="/x?a=1">link</a></p></div>\n';
const recordings = {
  '10,000 frames': record('frames', 5000, (id) => ({ content: [{ type: 'text', text: `answer ${id} `.repeat(20) }], isError: id % 50 === 0 })),
  'JSON text answers': record('json', 100, (id) => ({
    content: [{ type: 'text', text: JSON.stringify(Array.from({ length: 1400 }, (_, i) => ({ id: i, name: `item ${id}.${i}` }))) }],
  })),
  'HTML text answers': record('html', 100, () => ({ content: [{ type: 'text', text: html.repeat(1200) }] })),
  "answers all '<'": record('angles', 100, () => ({ content: [{ type: 'text', text: '<'.repeat(50_000) }] })),
  "answers all '</' (worst)": record('closing', 100, () => ({ content: [{ type: 'text', text: '</'.repeat(25_000) }] })),
};

const browser = await chromium.launch({
  executablePath: execFileSync('sh', ['-c', 'command -v chromium || command -v chromium-browser'], { encoding: 'utf8' }).trim(),
  args: process.getuid?.() === 0 ? ['--no-sandbox'] : [],
});
try {
  console.log(
    `load average ${loadavg()
      .map((value) => value.toFixed(2))
      .join(' ')}, ${openings} openings each`,
  );
  for (const [name, path] of Object.entries(recordings)) {
    const out = path.replace(/\.jsonl$/, '.html');
    execFileSync(process.execPath, [bin, 'report', path, '-o', out]);
    const times = [];
    for (let i = 0; i < openings; i++) {
      const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
      await page.goto(pathToFileURL(out).href);
      await page.waitForSelector('body[data-ready]', { timeout: 60_000 });
      times.push(await page.evaluate(() => Number(document.body.dataset.readyMs)));
      await page.close();
    }
    const [recordSize, reportSize] = [statSync(path).size, statSync(out).size];
    const size = (bytes) => `${(bytes / 1024 / 1024).toFixed(2)} MiB`;
    console.log(
      `${name.padEnd(28)} record ${size(recordSize)}, report ${size(reportSize)} (${(reportSize / recordSize).toFixed(2)}x); drawn in ${median(times)} ms median (${times.join(', ')})`,
    );
  }
} finally {
  await browser.close();
  rmSync(dir, { recursive: true, force: true });
}
