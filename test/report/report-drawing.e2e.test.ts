// How the report's drawings hold up, in a real browser: a chatty stdio server (JSON log lines on
// stderr, a name longer than its box, a call with four progress notifications) recorded through the
// built spy, and a tool error the checker finds nothing wrong with. Labels stay inside their
// drawings, ticks fall on round values, the waterfall fits its panel, stderr runs are one row.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { chromiumPath, openReport, sharedBrowser } from '../helpers/browser.js';
import { fixture, node, readEntries, recordSession, runBin, runBinSync, tempDir } from '../helpers/spy.js';

const temp = tempDir('mcp-spy-report-drawing-');
let chatty: string;

beforeAll(async () => {
  chatty = join(temp.dir, 'chatty.jsonl');
  await recordSession('everything-client.js', chatty, [node, fixture('servers', 'chatty-server.js')], { SCENARIO: 'progress' });
  expect((await runBin(['report', chatty])).code).toBe(0);
}, 120_000);

afterAll(() => temp.remove());

const html = (record: string) => record.replace(/\.jsonl$/, '.html');

/** Every text of the drawings under `selector` whose box leaves its SVG (left of 0 or past its width). */
function spilling(page: Page, selector: string) {
  return page.$$eval(selector, (texts) =>
    texts
      .map((text) => {
        const box = (text as SVGTextElement).getBBox();
        const svg = (text as SVGTextElement).ownerSVGElement!;
        return { text: text.textContent, left: box.x, right: box.x + box.width, width: svg.width.baseVal.value };
      })
      .filter(({ left, right, width }) => left < 0 || right > width + 0.5),
  );
}

describe.skipIf(!chromiumPath)('the drawings of a chatty server', () => {
  const shared = sharedBrowser();

  it('keep every label inside the waterfall and the sequence, long names cut with "…"', async () => {
    const { page, errors } = await openReport(shared.browser, html(chatty));
    expect(await spilling(page, '#waterfall text')).toEqual([]);
    expect(await spilling(page, '#sequence text')).toEqual([]);
    const label = await page.locator('#waterfall .bar-label').last().textContent();
    expect(label).toMatch(/^tools\/call trigger-long-running-op.*…$/);
    // The server's name is cut to its box, and whole in the box's tooltip.
    const title = page.locator('#sequence .lane-title').nth(1);
    expect(await title.textContent()).toMatch(/^a-chatty-server.*…$/);
    expect(await title.evaluate((text) => (text as SVGTextElement).getBBox().width)).toBeLessThanOrEqual(160);
    expect(await page.locator('#sequence .lane-head.server title').textContent()).toBe('a-chatty-server-whose-name-is-longer-than-any-box-drawn-for-it');
    // In the summary strip, the name wraps inside a card of the usual width (at most 280 px and its
    // border) instead of stretching the card across the strip (581 px before), and nothing spills.
    const card = page.locator('#summary .card[data-name="server"]');
    const box = await card.evaluate((element) => ({ width: element.getBoundingClientRect().width, spills: element.scrollWidth > element.clientWidth }));
    expect(box.spills).toBe(false);
    expect(box.width).toBeLessThanOrEqual(302);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('put the axis ticks on round values: 1, 2 or 5 times a power of ten', async () => {
    const { page } = await openReport(shared.browser, html(chatty));
    const ticks = (await page.locator('#waterfall .axis text').allTextContents()).map((text) => {
      const [, value, unit] = /^([\d.]+) (ms|s)$/.exec(text)!;
      return Number(value) * (unit === 's' ? 1000 : 1);
    });
    expect(ticks.length).toBeGreaterThanOrEqual(3);
    expect(ticks[0]).toBe(0);
    const step = ticks[1]!;
    expect(step / 10 ** Math.floor(Math.log10(step))).toBeOneOf([1, 2, 5]);
    ticks.forEach((tick, index) => expect(tick).toBeCloseTo(index * step, 6));
    await page.close();
  });

  it.each([1200, 1600, 700])('fit the waterfall to its panel at %i px, neither empty on the right nor scrolling', async (width) => {
    const { page } = await openReport(shared.browser, html(chatty), { width, height: 900 });
    const fit = await page.$eval('#waterfall .diagram', (panel) => ({
      panel: panel.clientWidth,
      scroll: panel.scrollWidth,
      svg: panel.querySelector('svg')!.width.baseVal.value,
    }));
    expect(fit.scroll).toBeLessThanOrEqual(fit.panel);
    expect(fit.svg).toBeGreaterThan(fit.panel - 4);
    expect(await spilling(page, '#waterfall text')).toEqual([]);
    // Resizing the window draws it again at the new width.
    await page.setViewportSize({ width: width - 200, height: 900 });
    await page.waitForFunction(() => {
      const panel = document.querySelector('#waterfall .diagram')!;
      return panel.querySelector('svg')!.width.baseVal.value > panel.clientWidth - 4 && panel.scrollWidth <= panel.clientWidth;
    });
    await page.close();
  });

  it('draw each run of stderr lines as one row that counts them, its text cut at a word with "…"', async () => {
    const entries = readEntries(chatty);
    expect(entries.filter((entry) => entry.kind === 'stderr')).toHaveLength(80);
    const { page } = await openReport(shared.browser, html(chatty));
    const runs = await page.$$eval('#sequence .arrow.stderr', (arrows) => arrows.map((arrow) => [arrow.getAttribute('data-lines'), arrow.textContent]));
    expect(runs.map(([lines]) => lines)).toEqual(['40', '40']);
    for (const [, text] of runs) expect(text).toMatch(/^40 lines: \{"level":"info".*\S…$/);
    // Rows: spawn, the stderr runs, the frames, exit; not one per line.
    const rows = await page.$$eval('#sequence svg.sequence', (svgs: SVGSVGElement[]) => svgs.reduce((sum, svg) => sum + svg.height.baseVal.value, 0));
    expect(rows).toBeLessThan(20 * 22 + 12);
    // The list keeps every line; a run's row opens its first.
    await page.locator('#sequence .arrow.stderr').first().click();
    expect(await page.locator('#frames .row.selected .badge').textContent()).toBe('stderr');
    await page.close();
  });

  it('cut a stderr line of words at a space, with "…", not mid-word', async () => {
    // The chatty server's first stderr line alone, made words: the lane has room for about 30 of them.
    const said = 'starting up: the server says a little more about what it is doing here, and then some';
    let kept = false;
    const entries = readEntries(chatty).flatMap((entry): object[] => {
      if (entry.kind !== 'stderr') return [entry];
      if (kept) return [];
      kept = true;
      return [{ ...entry, raw: said, bytes: Buffer.byteLength(said) }];
    });
    const record = temp.file('one-stderr-line.jsonl', `${entries.map((entry) => JSON.stringify(entry)).join('\n')}\n`);
    expect((await runBin(['report', record])).code).toBe(0);
    const { page } = await openReport(shared.browser, html(record));
    const shown = (await page.locator('#sequence .arrow.stderr text').first().textContent())!;
    expect(shown).toMatch(/\S…$/);
    const start = shown.slice(0, -1);
    expect(said.startsWith(start)).toBe(true);
    expect(said[start.length]).toBe(' ');
    await page.close();
  });

  it('number the progress notifications of a request: 1/4 to 4/4', async () => {
    const { page } = await openReport(shared.browser, html(chatty));
    const labels = await page.$$eval('#sequence .arrow.notification[data-related] text', (texts) => texts.map((text) => text.textContent));
    expect(labels).toEqual(['progress 1/4 of #1', 'progress 2/4 of #1', 'progress 3/4 of #1', 'progress 4/4 of #1']);
    await page.close();
  });
});

describe.skipIf(!chromiumPath)('the summary cards', () => {
  const shared = sharedBrowser();

  it('say what each counts: a tool error answered is not an error check found, and is not painted as one', async () => {
    const capture = [
      `-> ${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'divide', arguments: { a: 1, b: 0 } } })}`,
      `<- ${JSON.stringify({ jsonrpc: '2.0', id: 1, result: { isError: true, content: [{ type: 'text', text: 'cannot divide by zero' }] } })}`,
    ].join('\n');
    const record = temp.file('tool-error.jsonl', runBinSync(['view', temp.file('tool-error.log', `${capture}\n`), '--format', 'jsonl']).text);
    expect(runBinSync(['report', record]).code).toBe(0);
    const { page } = await openReport(shared.browser, html(record));
    const cards = await page.$$eval('#summary .card', (elements) =>
      elements.map((card) => [card.getAttribute('data-name'), card.querySelector('.card-value')!.textContent, card.classList.contains('bad')]),
    );
    expect(cards).toContainEqual(['error answers', '1 tool error', false]);
    expect(cards).toContainEqual(['check', '0 errors, 0 warnings', false]);
    expect(cards.map(([name]) => name)).not.toContain('errors');
    await page.close();
  });
});
