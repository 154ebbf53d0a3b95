// npm runs `prepare` after `npm ci`, and again each time npx links this clone to run its bin (the
// first `npx mcp-spy demo`), silently: a rebuild there cost a newcomer 25 to 80 s before the first
// line. The build is skipped when dist/ is newer than everything it is built from, and said when run.
//   node scripts/prepare.js           build unless dist/ is up to date
//   node scripts/prepare.js --built   note that dist/ was just built (the end of `npm run build`)
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const stamp = join(root, 'dist', '.built');
/** What dist/ is built from: a change to any of them is a reason to build again. */
const inputs = ['src', 'scripts/build-page.js', 'tsconfig.json', 'package-lock.json'];

/** The latest modification time under a path (0 when it does not exist). */
function latest(path) {
  let stats;
  try {
    stats = statSync(path);
  } catch {
    return 0;
  }
  if (!stats.isDirectory()) return stats.mtimeMs;
  return readdirSync(path).reduce((newest, name) => Math.max(newest, latest(join(path, name))), stats.mtimeMs);
}

if (process.argv.includes('--built')) {
  writeFileSync(stamp, `${new Date().toISOString()}\n`);
} else {
  const built = latest(stamp);
  const changed = Math.max(...inputs.map((input) => latest(join(root, input))));
  if (built === 0 || changed > built) {
    process.stderr.write(`mcp-spy: building dist/ (${built === 0 ? 'first build' : 'the sources changed'}; seconds, a minute or two on a busy machine)\n`);
    const result = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
    process.exit(result.status ?? 1);
  }
}
