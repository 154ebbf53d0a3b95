// Injected faults in the report, in a real browser: a session of the SDK client and server-everything
// recorded through the built spy with two fault rules (one call answered in the server's place, one
// held a moment). The arrows a rule acted on, and the one the spy made, are drawn apart and labelled;
// the fault events are shown; the server's own arrows are not marked.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumPath, openReport, sharedBrowser } from '../helpers/browser.js';
import { bin, everythingServer, node, readEntries, runBin, runClient, tempDir } from '../helpers/spy.js';

const temp = tempDir('mcp-spy-report-faults-');
const record = join(temp.dir, 'faulted.jsonl');
const toolError = 'tools/call tool=get-sum: tool-error "disk full"';
const delay = 'tools/call tool=echo: delay 50ms';

beforeAll(async () => {
  const spy = [node, bin, '--record', record, '--no-log', '-q', '--fault', toolError, '--fault', delay];
  await runClient('everything-client.js', ['--', ...spy, '--', node, everythingServer, 'stdio'], { SCENARIO: 'review' });
  expect((await runBin(['report', record])).code).toBe(0);
}, 120_000);

afterAll(() => temp.remove());

describe.skipIf(!chromiumPath)('the report of a recording with injected faults', () => {
  const shared = sharedBrowser();

  it('draws the arrows a rule acted on and the answer the spy made apart, labelled, the fault events shown', async () => {
    const entries = readEntries(record);
    const made = entries.find((entry) => entry.origin === 'spy')!;
    expect(made).toMatchObject({ fault: toolError, dir: 's2c' });
    const { page, errors } = await openReport(shared.browser, record.replace(/\.jsonl$/, '.html'));
    // The answer the spy made: its own style, its label and its rule.
    const injected = page.locator(`#sequence .arrow.injected[data-seq="${made.seq}"]`);
    expect(await injected.count()).toBe(1);
    expect(await injected.locator('text').textContent()).toContain('(injected by mcp-spy)');
    expect(await injected.getAttribute('data-fault')).toBe(toolError);
    expect(await injected.locator('title').textContent()).toBe(`made by mcp-spy, fault rule: ${toolError}`);
    // The requests the rules matched: marked "faulted", in a colour of their own.
    const faulted = page.locator('#sequence .arrow.faulted');
    expect((await faulted.locator('text').allTextContents()).sort()).toEqual(
      [expect.stringMatching(/^tools\/call echo.*\(faulted\)$/), expect.stringMatching(/^tools\/call get-sum.*\(faulted\)$/)].sort(),
    );
    const colour = (selector: string) =>
      page
        .locator(selector)
        .first()
        .locator('path')
        .evaluate((path) => getComputedStyle(path).stroke);
    const faultColour = await colour('#sequence .arrow.faulted');
    expect(await colour('#sequence .arrow.injected')).toBe(faultColour);
    expect(await colour('#sequence .arrow.request:not(.faulted)')).not.toBe(faultColour);
    // Nothing else is marked: the echo's answer came from the server, late.
    expect(await page.locator('#sequence .arrow.faulted, #sequence .arrow.injected').count()).toBe(3);
    // The fault events, each naming its rule, in the diagram and in the list.
    const events = await page.locator('#sequence .event.fault text').allTextContents();
    expect(events).toHaveLength(2);
    expect(events.join('\n')).toContain('tool-error');
    expect(events.join('\n')).toContain('delay');
    expect(await page.locator('#frames .row.injected .badge.injected').count()).toBe(1);
    expect(errors).toEqual([]);
    await page.close();
  });
});
