import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { configTargets } from '../../src/clients/config-targets.js';
import { planWrapFiles } from '../../src/clients/wrap-files.js';

let home: string;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'mcp-spy-targets-'));
  mkdirSync(join(home, '.cursor'));
  copyFileSync(fileURLToPath(new URL('../../fixtures/client-configs/cursor/user.json', import.meta.url)), join(home, '.cursor', 'mcp.json'));
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

it('run from the home directory, a file that is both user and project config is one place (the user scope)', () => {
  const { targets } = configTargets({ client: 'cursor', project: home }, { HOME: home });
  expect(targets.map((target) => [target.file, target.places.map((place) => place.scope)])).toEqual([[join(home, '.cursor', 'mcp.json'), ['user']]]);
  const works = planWrapFiles(targets, { spy: { node: '/n', bin: '/b' }, servers: [] });
  expect(works[0]!.plan!.notes.map((note) => `${note.name} ${note.changes}`)).toEqual(['web-search true', 'remote false']);
});
