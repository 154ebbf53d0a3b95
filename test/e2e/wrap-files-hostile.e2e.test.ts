// What wrap and unwrap do with config files that are not the plain case: their modes, owners and kinds.
import { chmodSync, chownSync, mkdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ownHome } from '../helpers/home.js';
import { runBin, tempDir } from '../helpers/spy.js';

let temp: ReturnType<typeof tempDir>;
let env: NodeJS.ProcessEnv;
let file: string;
const config = `${JSON.stringify({ mcpServers: { weather: { command: 'node', args: ['server.js'] } } }, null, 2)}\n`;

beforeEach(() => {
  temp = tempDir('mcp-spy-wrap-files-');
  const home = join(temp.dir, 'home');
  mkdirSync(join(home, '.cursor'), { recursive: true });
  file = join(home, '.cursor', 'mcp.json');
  writeFileSync(file, config);
  env = ownHome(home);
});
afterEach(() => temp.remove());

const wrapBin = (args: string[]) => runBin(args, { cwd: temp.dir, env });
const modeOf = (path: string) => (statSync(path).mode & 0o777).toString(8);

describe('the mode and owner of a config', () => {
  it('a mode the umask would narrow (0666, 0660) is kept through wrap and unwrap', async () => {
    for (const mode of [0o666, 0o660, 0o640, 0o600]) {
      chmodSync(file, mode);
      expect((await wrapBin(['wrap', 'cursor', '--yes'])).code).toBe(0);
      expect(modeOf(file)).toBe(mode.toString(8));
      expect((await wrapBin(['unwrap'])).code).toBe(0);
      expect(modeOf(file)).toBe(mode.toString(8));
      expect(readFileSync(file, 'utf8')).toBe(config);
    }
  });
});

describe('a config of another user', () => {
  it.runIf(process.getuid?.() === 0)('is refused in one line and left untouched, though root could write it', async () => {
    chownSync(file, 65534, 65534);
    const result = await wrapBin(['wrap', 'cursor', '--yes']);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(`mcp-spy: cannot wrap ${file}: it belongs to another user (uid 65534): mcp-spy changes only your own files\n`);
    expect(readFileSync(file, 'utf8')).toBe(config);
    expect(statSync(file).uid).toBe(65534);
    expect(() => statSync(`${file}.mcp-spy-backup`)).toThrow();
  });
});

describe('a record of wrapped entries that is not one', () => {
  const manifest = () => join(env.XDG_STATE_HOME!, 'mcp-spy', 'wrapped.json');
  it('entries of the wrong shape, a relative or __proto__ file key, files as a list: one line, exit 2, nothing written', async () => {
    expect((await wrapBin(['wrap', 'cursor', '--yes'])).code).toBe(0);
    const wrapped = readFileSync(file, 'utf8');
    const entry = { path: ['mcpServers', 'weather'], client: 'cursor', original: '{}', wrapped: JSON.parse(wrapped).mcpServers.weather };
    const hostile: [string, string][] = [
      [JSON.stringify({ v: 1, files: { [file]: 5 } }), `files[${JSON.stringify(file)}]`],
      [JSON.stringify({ v: 1, files: { [file]: [5] } }), `files[${JSON.stringify(file)}][0]`],
      [JSON.stringify({ v: 1, files: { [file]: [{ ...entry, path: 'mcpServers' }] } }), `files[${JSON.stringify(file)}][0].path`],
      [JSON.stringify({ v: 1, files: { [file]: [{ ...entry, original: 5 }] } }), `files[${JSON.stringify(file)}][0].original`],
      [JSON.stringify({ v: 1, files: { 'mcp.json': [entry] } }), 'files["mcp.json"]'],
      ['{"v":1,"files":{"__proto__":[]}}', 'files.__proto__'],
      [JSON.stringify({ v: 1, files: [] }), 'files'],
    ];
    for (const [text, where] of hostile) {
      writeFileSync(manifest(), text);
      for (const command of ['unwrap', 'wrap']) {
        const result = await wrapBin([command, ...(command === 'wrap' ? ['cursor', '--yes'] : [])]);
        expect(result.stderr).toBe(`mcp-spy: cannot use the record of wrapped entries: ${manifest()} is not a manifest of this mcp-spy (at ${where})\n`);
        expect(result.code).toBe(2);
        expect(readFileSync(file, 'utf8')).toBe(wrapped);
        expect(readFileSync(manifest(), 'utf8')).toBe(text);
      }
    }
  });
});

describe('two wraps at once', () => {
  const manifest = () => join(env.XDG_STATE_HOME!, 'mcp-spy', 'wrapped.json');
  it('a wrap waits for the one that holds the record of wrapped entries, and says so when it does not let go; a lock left by a killed one is taken over', async () => {
    mkdirSync(join(env.XDG_STATE_HOME!, 'mcp-spy'), { recursive: true });
    // Held by a process that runs (this one): the later writer would drop the other's entries.
    writeFileSync(`${manifest()}.lock`, `${process.pid}\n`);
    for (const args of [['wrap', 'cursor', '--yes'], ['unwrap']]) {
      const held = await wrapBin(args);
      expect(held.stderr).toBe(
        `mcp-spy: another mcp-spy wrap or unwrap (pid ${process.pid}) is changing the record of wrapped entries; run this again once it is done (or remove ${manifest()}.lock if no such process runs)\n`,
      );
      expect(held.code).toBe(2);
      expect(readFileSync(file, 'utf8')).toBe(config);
    }
    // Left by a process that no longer runs.
    let gone = 0;
    await runBin(['--version'], { cwd: temp.dir, onStart: (child) => ((gone = child.pid!), child.stdin!.end()) });
    writeFileSync(`${manifest()}.lock`, `${gone}\n`);
    const wrapped = await wrapBin(['wrap', 'cursor', '--yes']);
    expect(wrapped.code).toBe(0);
    expect(readFileSync(file, 'utf8')).toContain('mcp-spy.js');
    expect(() => statSync(`${manifest()}.lock`)).toThrow();
  });
});

describe('hostile entry names', () => {
  const names = [
    '__proto__',
    'constructor',
    'esc\u001b]0;pwn\u0007\u001b[31m',
    'bidi\u202eexe.txt',
    'a/../../b',
    '..',
    'nl\nx',
    'n'.repeat(10240),
    '--weird--',
  ];
  const hostile = `{"mcpServers":{${names.map((name, index) => `${JSON.stringify(name)}:{"command":"node","args":["s${index}.js"]}`).join(',')}}}\n`;

  it('the plan and the --dry-run diff show controls and bidirectional overrides as escapes; wrap then unwrap gives the same bytes', async () => {
    writeFileSync(file, hostile);
    const dry = await wrapBin(['wrap', 'cursor', '--dry-run']);
    expect(dry.code).toBe(0);
    expect(dry.text).not.toMatch(/[\u001b\u0007\u202e]/);
    expect(dry.text).toContain('"--name", "bidi\\u202eexe.txt"');
    expect((await wrapBin(['wrap', 'cursor', '--yes'])).code).toBe(0);
    expect(Object.keys(JSON.parse(readFileSync(file, 'utf8')).mcpServers)).toEqual(names);
    const unwrapDry = await wrapBin(['unwrap', '--dry-run']);
    expect(unwrapDry.text).not.toMatch(/[\u001b\u0007\u202e]/);
    expect((await wrapBin(['unwrap'])).code).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(hostile);
  });
});

describe('entries of odd shapes', () => {
  it('a name twice in one object is left as it is: wrap wrapped both, and unwrap then failed on overlapping edits', async () => {
    const twice = '{"mcpServers":{"a":{"command":"node","args":["1.js"]},"a":{"command":"node","args":["2.js"]},"b":{"command":"node"}}}\n';
    writeFileSync(file, twice);
    const wrapped = await wrapBin(['wrap', 'cursor', '--yes']);
    expect(wrapped.code).toBe(0);
    expect(wrapped.text).toContain(
      '  - a (user): named more than once here (a client uses only one of them): left as it is; give each its own name\n'.repeat(2),
    );
    expect(wrapped.text).toContain('  + b (user): wrap: node\n');
    const unwrapped = await wrapBin(['unwrap']);
    expect(unwrapped.stderr).toBe('');
    expect(unwrapped.code).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(twice);
  });

  it('a record naming one entry twice restores it once', async () => {
    expect((await wrapBin(['wrap', 'cursor', '--yes'])).code).toBe(0);
    const manifest = join(env.XDG_STATE_HOME!, 'mcp-spy', 'wrapped.json');
    const record = JSON.parse(readFileSync(manifest, 'utf8'));
    record.files[file].push(record.files[file][0]);
    writeFileSync(manifest, JSON.stringify(record));
    const unwrapped = await wrapBin(['unwrap']);
    expect(unwrapped.stderr).toBe('');
    expect(unwrapped.code).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(config);
  });

  it('type stdio with a url left in it is run by its command: it is wrapped as stdio', async () => {
    const stdio = '{"mcpServers":{"b":{"type":"stdio","command":"node","args":["3.js"],"url":"http://127.0.0.1:1/mcp"}}}\n';
    writeFileSync(file, stdio);
    const wrapped = await wrapBin(['wrap', 'cursor', '--yes']);
    expect(wrapped.code).toBe(0);
    expect(wrapped.text).toContain('  + b (user): wrap: node 3.js\n');
    expect(readFileSync(file, 'utf8')).toContain('"--name", "b", "--", "node", "3.js"]');
    expect((await wrapBin(['unwrap'])).code).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(stdio);
  });
});

describe('a config that is a link to nothing', () => {
  it('a loop of links or a dangling link where the table looks is reported, not taken for no config', async () => {
    rmSync(file);
    symlinkSync(file, file);
    const loop = await wrapBin(['wrap', 'cursor', '--yes']);
    expect(loop.stderr).toBe(`mcp-spy: cannot wrap ${file}: a loop of symbolic links\n`);
    expect(loop.code).toBe(2);
    rmSync(file);
    symlinkSync(join(temp.dir, 'nowhere.json'), file);
    const dangling = await wrapBin(['wrap', 'cursor', '--yes']);
    expect(dangling.stderr).toBe(`mcp-spy: cannot wrap ${file}: no such file (or a symbolic link to none)\n`);
    expect(dangling.code).toBe(2);
  });
});

describe("a link planted at the backup's name", () => {
  it('is replaced by the backup, never written through (a cloned project holding .mcp.json.mcp-spy-backup -> ~/.bashrc)', async () => {
    const project = join(temp.dir, 'cloned');
    mkdirSync(project);
    const precious = join(env.HOME!, '.bashrc');
    writeFileSync(precious, 'precious\n');
    const projectFile = join(project, '.mcp.json');
    writeFileSync(projectFile, config);
    symlinkSync(precious, `${projectFile}.mcp-spy-backup`);
    const wrapped = await runBin(['wrap', 'claude-code', '--yes'], { cwd: project, env });
    expect(wrapped.code).toBe(0);
    expect(readFileSync(precious, 'utf8')).toBe('precious\n');
    expect(readFileSync(`${projectFile}.mcp-spy-backup`, 'utf8')).toBe(config);
    expect((await runBin(['unwrap'], { cwd: project, env })).code).toBe(0);
    expect(readFileSync(projectFile, 'utf8')).toBe(config);
    expect(readFileSync(precious, 'utf8')).toBe('precious\n');
  });
});
