import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { ReportData } from './report-types.js';

/** The report's page code, bundled by the build beside the compiled CLI (dist/report/page). */
const pageDir = fileURLToPath(new URL('../../dist/report/page/', import.meta.url));

/** The page code cannot be found: this copy of mcp-spy was not built whole. */
export class ReportPageMissing extends Error {
  override name = 'ReportPageMissing';
}

function readPage(): { script: string; style: string } {
  try {
    return { script: readFileSync(`${pageDir}page.js`, 'utf8'), style: readFileSync(`${pageDir}page.css`, 'utf8') };
  } catch (error) {
    throw new ReportPageMissing(`the report page is not built (${(error as Error).message}); run npm run build`);
  }
}

const hashOf = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

const htmlEscapes: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => htmlEscapes[char]!);

/**
 * The recording as JSON that is safe inside a <script> element: a `<` that could end the element or
 * change how it is read (`</`, `<!--`, `<script`) is escaped, so no text from the wire can; JSON.parse
 * reads it back. Any other `<` stays one byte: text full of them would otherwise grow sixfold.
 */
export function embeddedJson(data: unknown): string {
  // `</` becomes `<\/` (JSON's own escape of `/`, one byte more), the rest the six bytes of \u003c.
  return JSON.stringify(data)
    .replace(/<\//g, '<\\/')
    .replace(/<(?=[!sS])/g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/**
 * One self-contained page: inline style and script, the data as JSON, and a Content-Security-Policy
 * that allows exactly that script and style (by hash) and nothing else: no network, no other script.
 */
export function reportHtml(data: ReportData): string {
  const { script, style } = readPage();
  const policy = ["default-src 'none'", `script-src ${hashOf(script)}`, `style-src ${hashOf(style)}`, "base-uri 'none'", "form-action 'none'"].join('; ');
  const title = `mcp-spy report: ${data.recordings.map((recording) => recording.file).join(' and ')}`;
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${policy}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<meta name="generator" content="mcp-spy ${escapeHtml(data.spy)}">`,
    `<title>${escapeHtml(title)}</title>`,
    `<style>${style}</style>`,
    '</head>',
    '<body>',
    '<main id="report"><noscript>This report draws itself with JavaScript; allow it for this file.</noscript></main>',
    `<script type="application/json" id="report-data">${embeddedJson(data)}</script>`,
    `<script>${script}</script>`,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}
