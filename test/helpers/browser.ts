// A headless Chromium (Debian's `chromium`, installed by .ci/run) driven by playwright-core, for
// the tests of the report's page: what a person sees, in a real browser, from file://.
import { execFileSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';

function findChromium(): string | undefined {
  try {
    return execFileSync('sh', ['-c', 'command -v chromium || command -v chromium-browser'], { encoding: 'utf8' }).trim() || undefined;
  } catch {
    return undefined;
  }
}

/** The browser's path, or undefined (then the browser tests are skipped, with a line saying why). */
export const chromiumPath = findChromium();
if (!chromiumPath) console.warn('chromium is not installed: the report page tests are skipped (apt-get install chromium; CI installs it)');

export function launchBrowser(): Promise<Browser> {
  // As root (containers, CI), Chromium runs only without its sandbox.
  return chromium.launch({ executablePath: chromiumPath!, args: process.getuid?.() === 0 ? ['--no-sandbox'] : [] });
}

/** For a describe block: one browser, launched before its tests and closed after them. */
export function sharedBrowser(): { browser: Browser } {
  const state = {} as { browser: Browser };
  beforeAll(async () => {
    state.browser = await launchBrowser();
  });
  afterAll(async () => {
    await state.browser?.close();
  });
  return state;
}

export interface OpenedReport {
  page: Page;
  /** Console errors and uncaught exceptions of the page. */
  errors: string[];
  /** Every request the page made beyond loading its own file. */
  requests: string[];
  /** From navigation to the page saying it is drawn, in ms (the page's own clock). */
  readyMs: number;
}

/** Opens a report from file:// and waits until it has drawn itself. */
export async function openReport(browser: Browser, path: string, viewport = { width: 1200, height: 900 }): Promise<OpenedReport> {
  const page = await browser.newPage({ viewport });
  const errors: string[] = [];
  const requests: string[] = [];
  const url = pathToFileURL(path).href;
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('request', (request) => {
    if (request.url() !== url) requests.push(request.url());
  });
  await page.goto(url);
  await page.waitForSelector('body[data-ready]', { timeout: 30_000 });
  const readyMs = await page.evaluate(() => Number(document.body.dataset.readyMs));
  return { page, errors, requests, readyMs };
}
