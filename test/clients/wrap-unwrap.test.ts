import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { configPlaces, type ClientId, type Scope } from '../../src/clients/client-table.js';
import type { ConfigTarget } from '../../src/clients/config-targets.js';
import { parseConfig, plainValueOf, nodeAt } from '../../src/clients/config-text.js';
import { planUnwrapFiles, writeUnwrapFiles } from '../../src/clients/unwrap-files.js';
import { backupPath, changesFile, planWrapFiles, writeWrapFiles } from '../../src/clients/wrap-files.js';
import type { WrapManifest } from '../../src/clients/wrap-manifest.js';

const fixtures = fileURLToPath(new URL('../../fixtures/client-configs/', import.meta.url));
const spy = { node: '/opt/node/bin/node', bin: '/opt/mcp-spy/bin/mcp-spy.js' };

/** Each fixture: the client, the scopes its file holds, and the local scope's project where it has one. */
const cases: { fixture: string; client: ClientId; scopes: Scope[]; project?: string; wraps: string[] }[] = [
  { fixture: 'claude-desktop/macos.json', client: 'claude-desktop', scopes: ['user'], wraps: ['filesystem', 'weather'] },
  { fixture: 'claude-desktop/windows.json', client: 'claude-desktop', scopes: ['user'], wraps: ['filesystem', 'plain', 'notes'] },
  { fixture: 'claude-desktop/linux.json', client: 'claude-desktop', scopes: ['user'], wraps: ['memory', 'sqlite'] },
  { fixture: 'claude-code/claude.json', client: 'claude-code', scopes: ['user', 'local'], project: '/home/dev/app', wraps: ['github', 'postgres'] },
  { fixture: 'claude-code/mcp.json', client: 'claude-code', scopes: ['project'], wraps: ['weather', 'python-tool'] },
  { fixture: 'cursor/user.json', client: 'cursor', scopes: ['user'], wraps: ['web-search'] },
  { fixture: 'cursor/project.json', client: 'cursor', scopes: ['project'], wraps: ['project-tool', 'plain'] },
  { fixture: 'vscode/workspace.json', client: 'vscode', scopes: ['project'], wraps: ['Perplexity', 'fetch'] },
  { fixture: 'vscode/user.json', client: 'vscode', scopes: ['user'], wraps: ['memory', 'time'] },
  { fixture: 'windsurf/mcp_config.json', client: 'windsurf', scopes: ['user'], wraps: ['github', 'disabled-one'] },
];

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'mcp-spy-wrap-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** The fixture copied into the test's directory, and the target of the table's places it holds. */
function targetOf(item: (typeof cases)[number], name = 'config.json'): ConfigTarget {
  const file = join(dir, name);
  copyFileSync(join(fixtures, item.fixture), file);
  const places = configPlaces([item.client], { platform: 'linux', home: dir, env: {}, project: item.project ?? dir })
    .filter((place) => item.scopes.includes(place.scope))
    .map((place) => ({ ...place, file }));
  return { file, places };
}

const empty = (): WrapManifest => ({ v: 1, files: {} });

function wrap(target: ConfigTarget, manifest: WrapManifest, hooks = {}) {
  const works = planWrapFiles([target], { spy, servers: [] });
  return { works, written: writeWrapFiles(works, manifest, hooks) };
}

describe.each(cases)('$fixture', (item) => {
  it('wraps each stdio entry, keeps everything else, and unwrap gives back the same bytes', () => {
    const target = targetOf(item);
    const before = readFileSync(target.file);
    const manifest = empty();
    const { works, written } = wrap(target, manifest);
    expect(written.map((result) => result.ok)).toEqual([true]);
    expect(works[0]!.plan!.notes.filter((note) => note.changes).map((note) => note.name)).toEqual(item.wraps);
    // An entry that runs the spy already (wrapped by hand) is recognised and left as it is.
    const byHand = works[0]!.plan!.notes.filter((each) => each.name === 'by-hand');
    expect(byHand.map((note) => note.says)).toEqual(item.fixture === 'claude-desktop/linux.json' ? ['already runs mcp-spy: left as it is'] : []);
    const after = readFileSync(target.file, 'utf8');
    expect(readFileSync(backupPath(target.file)).equals(before)).toBe(true);

    // Each wrapped entry runs the spy with its name, then its own command; its other fields are as they were.
    const syntax = item.client === 'vscode' ? 'jsonc' : 'json';
    const old = parseConfig(before.toString('utf8'), syntax);
    const now = parseConfig(after, syntax);
    if (!old.ok || !now.ok) throw new Error('fixture does not parse');
    for (const entry of manifest.files[target.file]!) {
      const was = plainValueOf(nodeAt(old.config, entry.path)!) as Record<string, unknown>;
      const is = plainValueOf(nodeAt(now.config, entry.path)!) as Record<string, unknown>;
      expect(is.command).toBe(spy.node);
      expect(is.args).toEqual([spy.bin, '--client', item.client, '--name', entry.path.at(-1), '--', was.command, ...((was.args as string[]) ?? [])]);
      expect({ ...is, command: 0, args: 0 }).toEqual({ ...was, command: 0, args: 0 });
    }
    // Comments and the lines of entries not wrapped are kept as they were.
    for (const [, comment] of before.toString('utf8').matchAll(/(?:^|\s)(\/\/[^\r\n]*|\/\*.*?\*\/)/g)) expect(after).toContain(comment);
    for (const line of before.toString('utf8').split(/\r?\n/)) {
      if (/"url"|"serverUrl"|"env"|"inputs"|"type"/.test(line) && !/"command"|"args"/.test(line)) expect(after).toContain(line);
    }
    if (before.includes('\r\n')) expect(after.replaceAll('\r\n', '')).not.toContain('\n');

    // Wrapping twice is wrapping once.
    const again = planWrapFiles([target], { spy, servers: [] });
    expect(changesFile(again[0]!)).toBe(false);

    const unwrapped = writeUnwrapFiles(planUnwrapFiles(manifest, { servers: [] }), manifest);
    expect(unwrapped.map((result) => [result.ok, result.backup?.removed])).toEqual([[true, true]]);
    expect(readFileSync(target.file).equals(before)).toBe(true);
    expect(existsSync(backupPath(target.file))).toBe(false);
    expect(manifest.files[target.file]).toEqual([]);
  });
});

describe('safety of the file', () => {
  const cursor = cases.find((item) => item.fixture === 'cursor/user.json')!;

  it('refuses a file that does not parse, in one line, and leaves it untouched', () => {
    const file = join(dir, 'broken.json');
    writeFileSync(file, '{ "mcpServers": { "a": { "command": "x" }, } }');
    const works = planWrapFiles([{ file, places: [{ client: 'cursor', scope: 'user', file, serversAt: ['mcpServers'] }] }], { spy, servers: [] });
    expect(works[0]!.failure).toBe('not valid JSON at line 1, column 44: a property name expected (a comma before a closing brace?)');
    expect(writeWrapFiles(works, empty())).toEqual([]);
    expect(readFileSync(file, 'utf8')).toBe('{ "mcpServers": { "a": { "command": "x" }, } }');
  });

  it('refuses a comment in a strict JSON config (the client would fail to read it)', () => {
    const file = join(dir, 'commented.json');
    writeFileSync(file, '{ // no\n "mcpServers": {} }');
    const works = planWrapFiles([{ file, places: [{ client: 'claude-desktop', scope: 'user', file, serversAt: ['mcpServers'] }] }], { spy, servers: [] });
    expect(works[0]!.failure).toMatch(/^not valid JSON at line 1, column 3: a comment, which this client does not allow in its file$/);
  });

  it('refuses a read-only file in one line and leaves it untouched', () => {
    const target = targetOf(cursor);
    const before = readFileSync(target.file);
    chmodSync(target.file, 0o444);
    const { written } = wrap(target, empty());
    expect(written.map((result) => result.why)).toEqual(['it is read-only (mode 0444)']);
    expect(readFileSync(target.file).equals(before)).toBe(true);
    expect(existsSync(backupPath(target.file))).toBe(false);
  });

  it('refuses a file that changed between read and write, in one line, and leaves the new content', () => {
    const target = targetOf(cursor);
    const manifest = empty();
    const { written } = wrap(target, manifest, { beforeReplace: () => writeFileSync(target.file, '{"mcpServers":{}}\n') });
    expect(written.map((result) => result.why)).toEqual([
      'it changed while mcp-spy was editing it (the client may have written it): nothing written, run the command again',
    ]);
    expect(readFileSync(target.file, 'utf8')).toBe('{"mcpServers":{}}\n');
    expect(manifest.files).toEqual({});
  });

  it('keeps the mode, and writes a symlinked config through to its target', () => {
    const real = targetOf(cursor, 'real.json');
    chmodSync(real.file, 0o640);
    mkdirSync(join(dir, 'dotfiles'));
    const link = join(dir, 'dotfiles', 'mcp.json');
    symlinkSync(real.file, link);
    const manifest = empty();
    const { written } = wrap({ file: link, places: real.places.map((place) => ({ ...place, file: link })) }, manifest);
    expect(written[0]!.ok).toBe(true);
    expect(statSync(link, { throwIfNoEntry: true }).isFile()).toBe(true);
    expect(readFileSync(real.file, 'utf8')).toContain(spy.bin);
    expect(statSync(real.file).mode & 0o777).toBe(0o640);
    expect(Object.keys(manifest.files)).toEqual([real.file]);
  });
});

describe('unwrap after edits', () => {
  const desktop = cases.find((item) => item.fixture === 'claude-desktop/macos.json')!;

  it('keeps an edit to another entry and to another key, and puts every wrapped entry back', () => {
    const target = targetOf(desktop);
    const before = readFileSync(target.file, 'utf8');
    const manifest = empty();
    wrap(target, manifest);
    const edited = readFileSync(target.file, 'utf8')
      .replace('"globalShortcut": "Ctrl+Space"', '"globalShortcut": "Alt+Space"')
      .replace('"mcpServers": {', '"mcpServers": {\n    "added": { "command": "added-server" },');
    writeFileSync(target.file, edited);
    const written = writeUnwrapFiles(planUnwrapFiles(manifest, { servers: [] }), manifest);
    expect(written[0]!.backup).toEqual({ path: backupPath(target.file), removed: false });
    const expected = before
      .replace('"globalShortcut": "Ctrl+Space"', '"globalShortcut": "Alt+Space"')
      .replace('"mcpServers": {', '"mcpServers": {\n    "added": { "command": "added-server" },');
    expect(readFileSync(target.file, 'utf8')).toBe(expected);
  });

  it('leaves alone an entry the user changed after wrapping, and says so', () => {
    const target = targetOf(desktop);
    const manifest = empty();
    wrap(target, manifest);
    writeFileSync(target.file, readFileSync(target.file, 'utf8').replace('"WEATHER_API_KEY": "sk-test"', '"WEATHER_API_KEY": "sk-new"'));
    const works = planUnwrapFiles(manifest, { servers: [] });
    expect(works[0]!.plan!.notes.map((note) => [note.entry.path.at(-1), note.outcome])).toEqual([
      ['filesystem', 'restored'],
      ['weather', 'changed'],
    ]);
    writeUnwrapFiles(works, manifest);
    expect(readFileSync(target.file, 'utf8')).toContain('"sk-new"');
    expect(manifest.files[target.file]!.map((entry) => entry.path.at(-1))).toEqual(['weather']);
  });

  it('forgets the entries of a file that is gone (a project removed)', () => {
    const target = targetOf(desktop);
    const manifest = empty();
    wrap(target, manifest);
    rmSync(target.file);
    const works = planUnwrapFiles(manifest, { servers: [] });
    expect(works.map((work) => [work.gone, work.plan!.notes.map((note) => note.outcome)])).toEqual([[true, ['gone', 'gone']]]);
    expect(writeUnwrapFiles(works, manifest).map((result) => result.ok)).toEqual([true]);
    expect(manifest.files[target.file]).toEqual([]);
  });
});

describe('wrap --http', () => {
  const cursor = cases.find((item) => item.fixture === 'cursor/user.json')!;

  it('points a URL entry at a spy on a port of its own, with the command that runs it; again changes nothing; unwrap gives back the bytes', () => {
    const target = targetOf(cursor);
    const before = readFileSync(target.file);
    const manifest: WrapManifest = {
      v: 1,
      files: {
        '/elsewhere/mcp.json': [
          {
            path: ['mcpServers', 'x'],
            client: 'cursor',
            original: '{}',
            wrapped: {},
            run: ['node', 'mcp-spy.js', 'http', '--target', 'https://x/mcp', '--listen', '127.0.0.1:7301'],
          },
        ],
      },
    };
    const works = planWrapFiles([target], { spy, servers: [], http: true }, manifest);
    const remote = works[0]!.plan!.notes.find((note) => note.name === 'remote')!;
    // 7301 is taken by an entry of another file: this one gets the next.
    expect(remote).toMatchObject({
      changes: true,
      run: [spy.node, spy.bin, 'http', '--target', 'https://example.com/mcp', '--listen', '127.0.0.1:7302', '--client', 'cursor', '--name', 'remote'],
    });
    writeWrapFiles(works, manifest);
    const after = readFileSync(target.file, 'utf8');
    expect(after).toContain('"url": "http://127.0.0.1:7302/mcp",\n      "headers": {\n        "API_KEY": "value"');
    const again = planWrapFiles([target], { spy, servers: [], http: true }, manifest);
    expect(changesFile(again[0]!)).toBe(false);
    expect(again[0]!.plan!.notes.find((note) => note.name === 'remote')!.says).toBe('already points at a spy on this machine; it runs with');
    writeUnwrapFiles(planUnwrapFiles(manifest, { servers: [], file: target.file }), manifest);
    expect(readFileSync(target.file).equals(before)).toBe(true);
  });

  it('without --http, leaves the URL entry and says what --http would do', () => {
    const works = planWrapFiles([targetOf(cursor)], { spy, servers: [] });
    expect(works[0]!.plan!.notes.find((note) => note.name === 'remote')).toMatchObject({
      changes: false,
      run: [spy.node, spy.bin, 'http', '--target', 'https://example.com/mcp', '--listen', '127.0.0.1:7301', '--client', 'cursor', '--name', 'remote'],
    });
  });
});
