// Bundles the report's page code (src/report/page, TypeScript checked by its own tsconfig) into one
// script for `mcp-spy report` to inline, and copies its style sheet beside it.
import { copyFileSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

const root = fileURLToPath(new URL('..', import.meta.url));
const outDir = `${root}dist/report/page`;

await build({
  configFile: false,
  root,
  logLevel: 'warn',
  build: {
    lib: { entry: 'src/report/page/main.ts', formats: ['iife'], name: 'mcpSpyReport', fileName: () => 'page.js' },
    outDir,
    emptyOutDir: true,
    minify: true,
    sourcemap: false,
    target: 'es2022',
    reportCompressedSize: false,
  },
});
copyFileSync(`${root}src/report/page/style.css`, `${outDir}/page.css`);

// The script is inlined in the page: a closing tag in it would end it early.
for (const file of ['page.js', 'page.css']) {
  if (/<\/(script|style)/i.test(readFileSync(`${outDir}/${file}`, 'utf8'))) throw new Error(`${file} holds a closing tag and cannot be inlined`);
}
