// The report page with recordings made to test it: hostile payloads, 10,000 frames, the limits, two
// recordings compared; and the command's own behaviour (where it writes, --open; its bad use is in
// test/cli/bad-use-review.test.ts).
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { chromiumPath, openReport, sharedBrowser } from '../helpers/browser.js';
import { waitUntil } from '../helpers/faults.js';
import { readEntries, runBin, runBinSync, tempDir } from '../helpers/spy.js';
import { frameText } from '../../src/record/frame-message.js';
import { blockSize } from '../../src/report/page/dom.js';

const temp = tempDir('mcp-spy-report-page-');
afterAll(() => temp.remove());

const frame = (arrow: '->' | '<-', message: object) => `${arrow} ${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`;

/** A capture turned into a record by `view --format jsonl` (the pipeline annotates it), with times `stepMs` apart. */
function recordOf(name: string, capture: string, stepMs = 1): string {
  const lines = runBinSync(['view', temp.file(`${name}.log`, capture), '--format', 'jsonl'])
    .text.split('\n')
    .filter(Boolean);
  const start = Date.UTC(2026, 6, 28, 10, 0, 0);
  // `msg` stays last on the line, as the record's contract has it (docs/record.md).
  const timed = lines.map((line, index) => {
    const { msg, ...entry } = JSON.parse(line) as { msg?: unknown };
    return JSON.stringify({ ...entry, session: 's1', t: new Date(start + index * stepMs).toISOString(), ...(msg === undefined ? {} : { msg }) });
  });
  return temp.file(`${name}.jsonl`, `${timed.join('\n')}\n`);
}

const hostile = [
  frame('->', { id: 1, method: 'tools/call', params: { name: '</script><script>window.__pwned=1</script>', arguments: {} } }),
  frame('<-', {
    id: 1,
    result: { isError: true, content: [{ type: 'text', text: '<img src=x onerror="window.__pwned=2"><script>window.__pwned=3</script></script><!--' }] },
  }),
  frame('->', { id: '__proto__', method: '__proto__', params: { constructor: { prototype: { polluted: 1 } } } }),
  frame('<-', { id: '__proto__', error: { code: -32601, message: '<b onmouseover="window.__pwned=4">\u001b[31mred</b>' } }),
  frame('->', { id: 5, method: 'tools/call', params: { name: 'evil\u202etxt.exe', arguments: {} } }),
  frame('<-', { id: 5, result: { isError: true, content: [{ type: 'text', text: '\u2067\u001b]52;c;aGk=\u0007\u009b' }] } }),
].join('');

function bigCapture(pairs: number): string {
  const parts: string[] = [];
  for (let id = 1; id <= pairs; id++) {
    parts.push(frame('->', { id, method: 'tools/call', params: { name: `tool-${id % 7}`, arguments: { query: `question ${id}` } } }));
    parts.push(frame('<-', { id, result: { content: [{ type: 'text', text: `answer ${id} `.repeat(20) }], isError: id % 50 === 0 } }));
  }
  return parts.join('');
}

describe('mcp-spy report, the command', () => {
  it('writes beside the recording, or where -o says, and reads standard input with -o', () => {
    const record = recordOf('beside', frame('->', { id: 1, method: 'ping' }));
    expect(runBinSync(['report', record]).text).toBe(`${join(temp.dir, 'beside.html')}\n`);
    expect(statSync(join(temp.dir, 'beside.html')).mode & 0o777).toBe(0o600);
    const out = join(temp.dir, 'from-stdin.html');
    expect(runBinSync(['report', '-', '-o', out], { input: readFileSync(record) }).code).toBe(0);
    expect(readFileSync(out, 'utf8')).toContain('"method":"ping"');
  });

  it.runIf(process.platform === 'linux')('--open hands the written report to xdg-open', async () => {
    const said = join(temp.dir, 'opened.txt');
    const bin = temp.file('xdg-open', `#!/bin/sh\nprintf '%s' "$1" > '${said}'\n`);
    chmodSync(bin, 0o755);
    const record = recordOf('opened', frame('->', { id: 1, method: 'ping' }));
    const result = await runBin(['report', record, '--open'], { env: { PATH: `${temp.dir}:${process.env.PATH}` } });
    expect(result.code).toBe(0);
    await waitUntil(() => existsSync(said) && readFileSync(said, 'utf8') !== '', 40_000, 'xdg-open to be run');
    expect(readFileSync(said, 'utf8')).toBe(join(temp.dir, 'opened.html'));
  });

  it.runIf(process.platform === 'linux')('--open with no opener, or one that finds no browser, says so in one line and still writes the report', async () => {
    const record = recordOf('unopened', frame('->', { id: 1, method: 'ping' }));
    const out = join(temp.dir, 'unopened.html');
    const none = await runBin(['report', record, '--open'], { env: { PATH: join(temp.dir, 'no-such-dir') } });
    expect([none.code, none.text, none.stderr]).toEqual([0, `${out}\n`, `mcp-spy: cannot open a browser (xdg-open: not found); open ${out} yourself\n`]);
    expect(readFileSync(out, 'utf8')).toMatch(/^<!doctype html>/);
    const bin = join(temp.dir, 'no-browser');
    mkdirSync(bin, { recursive: true });
    chmodSync(temp.file('no-browser/xdg-open', '#!/bin/sh\necho "xdg-open: no method available for opening \'$1\'" >&2\nexit 3\n'), 0o755);
    const failed = await runBin(['report', record, '--open'], { env: { PATH: `${bin}:${process.env.PATH}` } });
    expect([failed.code, failed.text, failed.stderr]).toEqual([
      0,
      `${out}\n`,
      `mcp-spy: cannot open a browser (xdg-open: exit status 3); open ${out} yourself\n`,
    ]);
  });

  it('keeps what the wire sent from ending its script element', () => {
    const record = recordOf('hostile-html', hostile);
    runBinSync(['report', record]);
    const html = readFileSync(join(temp.dir, 'hostile-html.html'), 'utf8');
    expect(html.match(/<script/g)).toHaveLength(2);
    expect(html.match(/<\/script>/g)).toHaveLength(2);
    expect(html).toContain("Content-Security-Policy\" content=\"default-src 'none'; script-src 'sha256-");
  });
});

describe.skipIf(!chromiumPath)('the report page', () => {
  const shared = sharedBrowser();

  it('shows a hostile payload as text and runs none of it', async () => {
    const record = recordOf('hostile', hostile);
    runBinSync(['report', record]);
    const { page, errors, requests } = await openReport(shared.browser, join(temp.dir, 'hostile.html'));
    for (const seq of [1, 2, 3, 4]) await page.locator(`#sequence .arrow[data-seq="${seq}"]`).click();
    expect(await page.locator('#frames .row[data-seq="2"] .exact').textContent()).toContain('<img src=x onerror=\\"window.__pwned=2\\">');
    expect(await page.locator('#frames .row[data-seq="3"] .label').textContent()).toContain('__proto__');
    // Controls and bidirectional overrides are shown as escapes: none hides text or reorders it.
    await page.locator('#sequence .arrow[data-seq="6"]').click();
    expect(await page.locator('#frames .row[data-seq="5"] .label').textContent()).toBe('tools/call evil\\u202etxt.exe #5');
    expect(await page.locator('#frames .row[data-seq="6"] .pretty').textContent()).toContain('"text": "\\u2067\\u001b]52;c;aGk=\\u0007\\u009b"');
    expect(await page.locator('#report').textContent()).not.toMatch(/[\u0000-\u0008\u001b\u009b\u202a-\u202e\u2066-\u2069]/);
    expect(
      await page.evaluate(() => [
        (window as { __pwned?: number }).__pwned,
        document.querySelectorAll('img, b, script').length,
        ({} as { polluted?: number }).polluted,
      ]),
    ).toEqual([undefined, 2, undefined]);
    expect(errors).toEqual([]);
    expect(requests).toEqual([]);
    await page.close();
  });

  it('draws 10,000 frames, building only the rows near the view, in a file under three times the record', async () => {
    const record = recordOf('big', bigCapture(5000), 3);
    expect((await runBin(['report', record])).code).toBe(0);
    const html = join(temp.dir, 'big.html');
    expect(statSync(html).size).toBeLessThan(3 * statSync(record).size);
    const { page, errors, readyMs } = await openReport(shared.browser, html);
    console.log(
      `10,000 frames: painted ${readyMs} ms after navigation (load average ${loadavg()[0]!.toFixed(2)}); report ${(statSync(html).size / statSync(record).size).toFixed(2)} x the record (bench/report.js measures both)`,
    );
    expect(await page.locator('#sequence .arrow[data-seq]').count()).toBe(10_000);
    expect(await page.locator('#waterfall .bar').count()).toBe(5000);
    // The time is the benchmark's to measure (bench/report.js; the target is 2 s), not a bound a
    // loaded machine can miss. What kept it there is held here: the list builds only the block of
    // rows in view (drawing every row at once took ~9 s), and builds the rest as they come near.
    expect(await page.locator('#frames .row').count()).toBeLessThanOrEqual(2 * blockSize);
    await page.locator('#sequence .arrow[data-seq="9999"]').click();
    await page.locator('#frames .row[data-seq="9999"]').waitFor();
    expect(errors).toEqual([]);
    await page.close();
  });

  it('past its limits draws the first frames, keeps annotations without text, and says what it left out', async () => {
    const record = recordOf('limited', bigCapture(50));
    const out = join(temp.dir, 'limited.html');
    expect(runBinSync(['report', record, '-o', out, '--max-frames', '30', '--max-text', '2k']).code).toBe(0);
    const { page } = await openReport(shared.browser, out);
    expect(await page.locator('#sequence .arrow[data-seq]').count()).toBe(30);
    expect(await page.textContent('#left-out')).toMatch(/70 entries past the first 30 .*the text of \d+ frames .* was left out past 2\.0 KiB/);
    expect(await page.$eval('[data-kind="request"]', (badge) => badge.getAttribute('data-count'))).toBe('50');
    await page.locator('#sequence .arrow[data-seq="30"]').click();
    expect(await page.textContent('#frames .row[data-seq="30"] .left-out')).toMatch(/left out of the report \(size limit\)/);
    await page.close();
  });

  it('runs an unanswered request to the end of the recording, open, in the waterfall', async () => {
    const capture = [
      frame('->', { id: 1, method: 'ping' }),
      frame('->', { id: 2, method: 'tools/list' }),
      frame('<-', { id: 1, result: {} }),
      frame('->', { id: 3, method: 'ping' }),
      frame('<-', { id: 3, result: {} }),
    ].join('');
    const record = recordOf('unanswered', capture, 100);
    runBinSync(['report', record]);
    const { page } = await openReport(shared.browser, join(temp.dir, 'unanswered.html'));
    const bars = await page.$$eval('#waterfall .bar', (groups) =>
      groups.map((group) => {
        const rect = group.querySelector('rect')!;
        return {
          seq: group.getAttribute('data-seq'),
          outcome: group.getAttribute('class'),
          end: Number(rect.getAttribute('x')) + Number(rect.getAttribute('width')),
        };
      }),
    );
    expect(bars.map(({ seq, outcome }) => [seq, outcome])).toEqual([
      ['1', 'bar response'],
      ['2', 'bar open'],
      ['4', 'bar response'],
    ]);
    expect(bars[1]!.end).toBeGreaterThan(bars[2]!.end - 1);
    expect(await page.locator('#summary').textContent()).toMatch(/unanswered\s*1/i);
    await page.close();
  });

  it('cuts a large payload and shows all of it on request', async () => {
    const record = recordOf('large', frame('->', { id: 1, method: 'ping' }) + frame('<-', { id: 1, result: { blob: 'y'.repeat(60_000) } }));
    runBinSync(['report', record]);
    const { page } = await openReport(shared.browser, join(temp.dir, 'large.html'));
    await page.locator('#sequence .arrow[data-seq="2"]').click();
    const exact = page.locator('#frames .row[data-seq="2"] .exact');
    expect((await exact.textContent())!.length).toBe(20_000);
    await page.locator('#frames .row[data-seq="2"] .payload:has(.exact) .expand').click();
    expect(await exact.textContent()).toBe(frameText(readEntries(record).find((entry) => entry.seq === 2)!));
    await page.close();
  });

  it('compares two recordings: tools and the answers to matching requests, differences marked', async () => {
    const before = runBinSync(['demo', '--dir', join(temp.dir, 'before')]) && join(temp.dir, 'before', 'wire.jsonl');
    const changed = readEntries(before).map((entry) => {
      if (entry.msg === undefined || entry.dir !== 's2c' || entry.kind === 'invalid') return entry;
      const message = structuredClone(entry.msg) as { result: { tools: { name: string }[]; content: [{ text: string }] } };
      if (entry.method === 'tools/list') message.result.tools = message.result.tools.filter((tool: { name: string }) => tool.name !== 'divide');
      if (entry.method === 'tools/call' && entry.tool === 'add') message.result.content[0].text = '6';
      return { ...entry, msg: message };
    });
    const after = temp.file('after.jsonl', `${changed.map((entry) => JSON.stringify(entry)).join('\n')}\n`);
    const made = runBinSync(['report', before, after]);
    expect(made.text).toBe(`${join(temp.dir, 'wire-vs-after.html')}\n`);
    const { page, errors } = await openReport(shared.browser, join(temp.dir, 'wire-vs-after.html'));
    // What differs leads, in a summary; the identical tools and answers are folded.
    expect(await page.$$eval('#comparison .differences li', (items) => items.map((item) => item.textContent))).toEqual([
      'tool divide only in wire.jsonl',
      expect.stringMatching(/^tools\/list changed: result\.tools\[1\] \{"name":"divide".*…? → \(none\)/),
      expect.stringMatching(/^tools\/call add changed: result\.content\[0\]\.text "\d+" → "6"$/),
    ]);
    expect(await page.$$eval('#comparison tr.pair', (rows) => rows.map((row) => [row.getAttribute('data-tool'), row.getAttribute('data-status')]))).toEqual([
      ['divide', 'only-before'],
      ['add', 'same'],
    ]);
    expect(await page.locator('#comparison details.identical tr.pair[data-tool="add"]').count()).toBe(1);
    const changedPairs = page.locator('#comparison details.pair[data-status="changed"]');
    expect(await changedPairs.count()).toBe(2);
    expect(await changedPairs.locator('tr.diff td:first-child').allTextContents()).toEqual(
      expect.arrayContaining(['result.content[0].text', 'result.tools[1]']),
    );
    const same = page.locator('#comparison details.identical details.pair[data-status="same"]');
    expect(await same.count()).toBeGreaterThan(3);
    expect(await same.first().isVisible()).toBe(false);
    // The changed answers are near the top, not below every identical one.
    expect((await changedPairs.first().boundingBox())!.y).toBeLessThan(900);
    await page.locator('.tabs .tab[data-recording="0"]').click();
    expect(await page.textContent('#tools')).toContain('divide');
    expect(errors).toEqual([]);
    await page.close();
  });
});
