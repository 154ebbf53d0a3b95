// `mcp-spy report` on real sessions recorded through the built spy (server-everything over stdio and
// Streamable HTTP, a 2026-07-28 session, the demo), looked at in a real browser; and the Mermaid
// text of the same recordings, read by Mermaid's own parser.
import { copyFileSync, existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import mermaid from 'mermaid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumPath, openReport, sharedBrowser } from '../helpers/browser.js';
import { everythingHttp, recordHttp } from '../helpers/http-spy.js';
import { recordEverything, recordV2 } from '../helpers/recordings.js';
import { framesOf, readEntries, root, runBin, runBinSync, tempDir } from '../helpers/spy.js';
import { frameText } from '../../src/record/frame-message.js';

const temp = tempDir('mcp-spy-report-');
const records: Record<string, string> = {};

beforeAll(async () => {
  const dir = (name: string) => {
    const path = join(temp.dir, name);
    runBinSync(['demo', '--dir', path]);
    return path;
  };
  records.demo = join(dir('demo'), 'wire.jsonl');
  records.stdio = (await recordEverything(dir('stdio'))).record;
  records.http = (
    await recordHttp(dir('http'), '/mcp', everythingHttp('streamableHttp'), { script: 'everything-client.js', flag: '--url', env: { SCENARIO: 'review' } })
  ).record;
  records.v2 = (await recordV2(dir('v2'))).record;
  for (const record of Object.values(records)) {
    const made = await runBin(['report', record]);
    expect(made.stderr).toBe('');
    expect(made.code).toBe(0);
    expect(made.text).toBe(`${record.replace(/\.jsonl$/, '.html')}\n`);
  }
}, 180_000);

afterAll(() => temp.remove());

const names = ['demo', 'stdio', 'http', 'v2'] as const;

describe('view --format mermaid', () => {
  it.each(names)('of the %s recording is a sequence diagram Mermaid parses, one message per frame', async (name) => {
    const result = runBinSync(['view', records[name]!, '--format', 'mermaid']);
    expect(result.code).toBe(0);
    await expect(mermaid.parse(result.text)).resolves.toMatchObject({ diagramType: 'sequence' });
    const messages = result.text.split('\n').filter((line) => /^ {4}[CS]-/.test(line));
    expect(messages).toHaveLength(framesOf(readEntries(records[name]!)).length);
  });
});

describe.skipIf(!chromiumPath)('the report in a browser', () => {
  const shared = sharedBrowser();

  it.each(names)('of the %s recording: an arrow per frame, a bar per request, the counts of stats, no error, no request', async (name) => {
    const record = records[name]!;
    const frames = framesOf(readEntries(record));
    const stats = JSON.parse(runBinSync(['stats', record, '--format', 'json']).text) as { kinds: Record<string, number>; frames: number };
    const { page, errors, requests } = await openReport(shared.browser, record.replace(/\.jsonl$/, '.html'));
    const arrows = await page.$$eval('#sequence .arrow[data-seq]:not(.stderr)', (elements) =>
      elements.map((element) => `${element.getAttribute('data-session')}|${element.getAttribute('data-seq')}`),
    );
    expect(arrows).toEqual(frames.map((frame) => `${frame.session}|${frame.seq}`));
    const bars = await page.$$eval('#waterfall .bar', (elements) =>
      elements.map((element) => `${element.getAttribute('data-session')}|${element.getAttribute('data-seq')}`),
    );
    expect(bars.sort()).toEqual(
      frames
        .filter((frame) => frame.kind === 'request')
        .map((frame) => `${frame.session}|${frame.seq}`)
        .sort(),
    );
    const counts = await page.$$eval('#summary .kind-counts [data-kind]', (elements) =>
      Object.fromEntries(elements.map((element) => [element.getAttribute('data-kind'), Number(element.getAttribute('data-count'))])),
    );
    expect(counts).toEqual(stats.kinds);
    expect(
      await page.$$eval(
        '#frames .row',
        (rows) => rows.filter((row) => row.matches('.request,.response,.notification,.tool-error,.protocol-error,.invalid')).length,
      ),
    ).toBe(stats.frames);
    const checked = /(\d+ errors?, \d+ warnings?) in/.exec(runBinSync(['check', record]).text)![1];
    expect(await page.textContent('#summary .card[data-name="check"] .card-value')).toBe(checked);
    expect(errors).toEqual([]);
    expect(requests).toEqual([]);
    await page.close();
  });

  it.each(names)('of the %s recording: latency per method and tool, and the tools with their calls, as stats counts them', async (name) => {
    const record = records[name]!;
    type Row = { count: number; protocolErrors: number; toolErrors: number; latency?: Record<'p50' | 'p95' | 'p99' | 'max', number> };
    const stats = JSON.parse(runBinSync(['stats', record, '--format', 'json']).text) as { methods: Record<string, Row>; tools: Record<string, Row> };
    const { page } = await openReport(shared.browser, record.replace(/\.jsonl$/, '.html'));
    const cells = (table: number) =>
      page.$$eval(`#latency table:nth-of-type(${table}) tbody tr`, (rows) =>
        rows.map((row) => [...row.querySelectorAll('td')].map((cell) => cell.textContent)),
      );
    const expected = (table: Record<string, Row>) =>
      Object.entries(table).map(([key, row]) => [
        key,
        ...[row.count, row.latency?.p50, row.latency?.p95, row.latency?.p99, row.latency?.max, row.protocolErrors, row.toolErrors].map((value) =>
          value === undefined ? '–' : String(value),
        ),
      ]);
    expect(await cells(1)).toEqual(expected(stats.methods));
    expect(await cells(2)).toEqual(expected(stats.tools));
    const listed = new Set(
      readEntries(record).flatMap((entry) =>
        entry.dir === 's2c' && entry.method === 'tools/list'
          ? ((entry.msg as { result?: { tools?: { name: string }[] } }).result?.tools ?? []).map((tool) => tool.name)
          : [],
      ),
    );
    const tools = await page.$$eval('#tools tr[data-tool]', (rows) =>
      rows.map((row) => [row.getAttribute('data-tool'), Number(row.querySelector('td.number')!.textContent)] as const),
    );
    expect(tools.map(([tool]) => tool).sort()).toEqual([...listed].sort());
    for (const [tool, calls] of tools) expect(calls, tool!).toBe(stats.tools[tool!]?.count ?? 0);
    await page.close();
  });

  it('draws notifications dashed, tool errors and protocol errors each in a colour of its own', async () => {
    const { page } = await openReport(shared.browser, records.demo!.replace(/\.jsonl$/, '.html'));
    const style = (kind: string) =>
      page
        .locator(`#sequence .arrow.${kind} path`)
        .first()
        .evaluate((path) => [getComputedStyle(path).stroke, getComputedStyle(path).strokeDasharray] as const);
    const [request, response, notification, toolError, protocolError] = await Promise.all([
      style('request'),
      style('response'),
      style('notification'),
      style('tool-error'),
      style('protocol-error'),
    ]);
    expect(notification[1]).not.toBe('none');
    expect([request, response, toolError, protocolError].map(([, dashes]) => dashes)).toEqual(['none', 'none', 'none', 'none']);
    expect(new Set([response[0], toolError[0], protocolError[0]]).size).toBe(3);
    await page.close();
  });

  it('picks one session of a record: its arrows and bars alone', async () => {
    const record = records.v2!;
    const frames = framesOf(readEntries(record));
    const sessions = [...new Set(frames.map((frame) => frame.session))];
    expect(sessions).toHaveLength(2);
    const { page, errors } = await openReport(shared.browser, record.replace(/\.jsonl$/, '.html'));
    const drawn = async () => [
      await page.$$eval('#sequence .arrow[data-seq]:not(.stderr)', (elements) => elements.map((element) => element.getAttribute('data-session'))),
      await page.$$eval('#waterfall .bar', (elements) => elements.map((element) => element.getAttribute('data-session'))),
    ];
    for (const session of sessions) {
      await page.selectOption('#sequence .session-picker', session!);
      const mine = frames.filter((frame) => frame.session === session);
      expect(await drawn()).toEqual([mine.map(() => session), mine.filter((frame) => frame.kind === 'request').map(() => session)]);
    }
    await page.selectOption('#sequence .session-picker', '*');
    expect((await drawn())[0]).toHaveLength(frames.length);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('draws server-to-client requests right to left and progress on the bar of its request', async () => {
    const { page } = await openReport(shared.browser, records.stdio!.replace(/\.jsonl$/, '.html'));
    const serverRequest = page.locator('#sequence .arrow.request.s2c').first();
    const [from, to] = await serverRequest.locator('path').evaluate((path) => (path.getAttribute('d')!.match(/^M(\d+) \d+H(\d+)/) ?? []).slice(1).map(Number));
    expect(from).toBeGreaterThan(to!);
    const progress = readEntries(records.stdio!).filter((entry) => entry.method === 'notifications/progress');
    expect(progress.length).toBeGreaterThan(0);
    const request = progress[0]!.related!.seq;
    expect(await page.locator(`#waterfall .bar[data-seq="${request}"] .tick`).count()).toBe(progress.filter((entry) => entry.related?.seq === request).length);
    expect(
      await page.$$eval('#sequence .arrow[data-related]', (arrows) =>
        arrows.filter((arrow) => /^progress \d+\/\d+ of #/.test(arrow.textContent!)).map((arrow) => Number(arrow.getAttribute('data-related'))),
      ),
    ).toEqual(progress.map((entry) => entry.related!.seq));
    await page.close();
  });

  it('leaves out of the sequence of an HTTP recording what wire.log leaves out (SSE priming, plain 202s), and the stderr lane it has no use for', async () => {
    const entries = readEntries(records.http!);
    const http = entries.filter((entry) => entry.kind === 'http');
    const routine = http.filter((entry) => (entry.status === 202 && entry.summary === 'Accepted') || String(entry.summary).startsWith('SSE priming'));
    expect(routine.length).toBeGreaterThan(0);
    const { page } = await openReport(shared.browser, records.http!.replace(/\.jsonl$/, '.html'));
    const drawn = await page.$$eval('#sequence .event.http', (events) => events.map((event) => Number(event.getAttribute('data-seq'))));
    expect(drawn).toEqual(http.filter((entry) => !routine.includes(entry)).map((entry) => entry.seq));
    // The list still has them all, as view --full does.
    expect(await page.locator('#frames .row.http').count()).toBe(http.length);
    await page.close();
    // The record holds the demo's stdio session too (with a stderr); the HTTP session alone, its
    // server started elsewhere (no stderr), has no lane for a stderr.
    const httpSession = http[0]!.session;
    const alone = entries.filter((entry) => entry.session === httpSession && entry.kind !== 'stderr');
    const elsewhere = temp.file('http-target-only.jsonl', `${alone.map((entry) => JSON.stringify(entry)).join('\n')}\n`);
    expect((await runBin(['report', elsewhere])).code).toBe(0);
    const other = await openReport(shared.browser, elsewhere.replace(/\.jsonl$/, '.html'));
    expect(await other.page.locator('#sequence .lane-head.stderr, #sequence .lifeline.stderr').count()).toBe(0);
    expect(await other.page.locator('#sequence .lane-head').count()).toBe(2);
    await other.page.close();
  });

  it('opens the frame of an arrow clicked, filters the list with the language of view --filter, and toggles kinds', async () => {
    const record = records.demo!;
    const { page, errors } = await openReport(shared.browser, record.replace(/\.jsonl$/, '.html'));
    const call = framesOf(readEntries(record)).find((frame) => frame.kind === 'tool-error')!;
    await page.locator(`#sequence .arrow[data-seq="${call.seq}"]`).click();
    const row = page.locator(`#frames .row[data-seq="${call.seq}"]`);
    await expect.poll(() => row.getAttribute('class')).toContain('open');
    expect(await row.locator('.pretty').textContent()).toContain('"isError": true');
    expect(await row.locator('.exact').textContent()).toBe(frameText(call));

    await page.fill('#frames .filter', 'kind = request and method = "tools/*"');
    const visible = () =>
      page.$$eval('#frames .row', (rows) => rows.filter((row) => !(row as HTMLElement).hidden).map((row) => Number(row.getAttribute('data-seq'))));
    expect(await visible()).toEqual(
      framesOf(readEntries(record))
        .filter((frame) => frame.kind === 'request' && frame.method?.startsWith('tools/'))
        .map((frame) => frame.seq),
    );
    await page.fill('#frames .filter', 'latency >');
    expect(await page.textContent('#frames .filter-error')).toMatch(/column/);
    await page.fill('#frames .filter', '');
    await page.locator('#frames .kinds input[data-kind="response"]').uncheck();
    expect(await page.$$eval('#frames .row.response', (rows) => rows.every((row) => (row as HTMLElement).hidden))).toBe(true);

    await page.locator('#findings .finding-link').first().click();
    await expect.poll(() => page.locator('#frames .row.selected').count()).toBe(1);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('takes a picture of the demo report (UPDATE_SCREENSHOTS=1 keeps it as docs/report.png)', async () => {
    // The picture shows the server's command as a reader would type it, not where this test ran.
    const lines = readEntries(records.demo!).map((entry) =>
      JSON.stringify(entry.kind === 'spawn' ? { ...entry, command: ['node', 'server.js'], cwd: '.' } : entry),
    );
    const record = temp.file('wire.jsonl', `${lines.join('\n')}\n`);
    expect((await runBin(['report', record])).code).toBe(0);
    const { page } = await openReport(shared.browser, record.replace(/\.jsonl$/, '.html'), { width: 1200, height: 1500 });
    const shot = join(temp.dir, 'report.png');
    await page.screenshot({ path: shot });
    expect(readFileSync(shot).subarray(1, 4).toString()).toBe('PNG');
    expect(statSync(shot).size).toBeGreaterThan(20_000);
    if (process.env.UPDATE_SCREENSHOTS === '1') copyFileSync(shot, join(root, 'docs', 'report.png'));
    expect(existsSync(join(root, 'docs', 'report.png'))).toBe(true);
    await page.close();
  });
});
