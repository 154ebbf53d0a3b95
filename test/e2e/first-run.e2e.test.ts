// npm runs `prepare` after `npm ci`, and again, silently, when the first `npx mcp-spy` links the
// clone: the second time the build must be skipped (it cost a newcomer 25 to 80 s of silence).
import { execFile } from 'node:child_process';
import { appendFileSync, copyFileSync, mkdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { root, tempDir } from '../helpers/spy.js';

const temp = tempDir('mcp-spy-prepare-');
afterAll(() => temp.remove());

const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> };

/** The sandbox's name and command: npx runs a clone's own bin when the name is the project's. */
const name = 'mcp-spy-first-run-sandbox';

/** A project laid out as this one, with this package's prepare script and a build that only counts its runs. */
function sandbox(under = 'project'): string {
  const dir = join(temp.dir, under);
  for (const sub of ['scripts', 'src', 'dist', 'bin']) mkdirSync(join(dir, sub), { recursive: true });
  copyFileSync(join(root, 'scripts', 'prepare.js'), join(dir, 'scripts', 'prepare.js'));
  for (const file of ['tsconfig.json', 'package-lock.json', 'scripts/build-page.js']) writeFileSync(join(dir, file), '{}\n');
  writeFileSync(join(dir, 'src', 'index.ts'), 'export {};\n');
  writeFileSync(join(dir, 'bin', 'run.js'), "#!/usr/bin/env node\nconsole.log('ran');\n", { mode: 0o755 });
  // The real build's last step, after a stand-in for tsc and the page bundle.
  const last = ' && node scripts/prepare.js --built';
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({
      name,
      version: '1.0.0',
      private: true,
      type: 'module',
      bin: { [name]: 'bin/run.js' },
      scripts: { prepare: pkg.scripts.prepare, build: `node -e "require('fs').appendFileSync('builds', 'x')"${last}` },
    }),
  );
  return dir;
}

const prepare = (cwd: string) => promisify(execFile)('npm', ['run', '--silent', 'prepare'], { cwd });
const builds = (dir: string) => {
  try {
    return readFileSync(join(dir, 'builds'), 'utf8').length;
  } catch {
    return 0;
  }
};

describe('prepare builds only what changed', () => {
  it('the project builds through prepare and notes each build', () => {
    expect(pkg.scripts.prepare).toBe('node scripts/prepare.js');
    expect(pkg.scripts.build).toMatch(/ && node scripts\/prepare\.js --built$/);
  });

  it('builds the first time and says so, skips when dist/ is newer than its sources, builds again after a change', async () => {
    const dir = sandbox();
    const first = await prepare(dir);
    expect(first.stderr).toBe('mcp-spy: building dist/ (first build; seconds, a minute or two on a busy machine)\n');
    expect(builds(dir)).toBe(1);
    const again = await prepare(dir);
    expect(again.stderr).toBe('');
    expect(builds(dir)).toBe(1);
    // A source edited after the build (a minute later than the stamp, whatever the clock's grain).
    appendFileSync(join(dir, 'src', 'index.ts'), 'export const changed = 1;\n');
    const later = new Date(Date.now() + 60_000);
    utimesSync(join(dir, 'src', 'index.ts'), later, later);
    const changed = await prepare(dir);
    expect(changed.stderr).toBe('mcp-spy: building dist/ (the sources changed; seconds, a minute or two on a busy machine)\n');
    expect(builds(dir)).toBe(2);
  });
});

describe('the first npx in a fresh clone', () => {
  it('runs the bin without building again: npm ci built it, and npx runs prepare once more as it links the clone', async () => {
    const dir = sandbox('clone');
    await prepare(dir);
    expect(builds(dir)).toBe(1);
    // A cache of its own: npx links the clone there (no download), and the user's cache is left alone.
    const env = { ...process.env, npm_config_cache: join(temp.dir, 'npm-cache'), npm_config_update_notifier: 'false' };
    const first = await promisify(execFile)('npx', ['--offline', name], { cwd: dir, env });
    expect(first.stdout).toBe('ran\n');
    expect(first.stderr).not.toContain('building');
    expect(builds(dir)).toBe(1);
  }, 120_000);
});
