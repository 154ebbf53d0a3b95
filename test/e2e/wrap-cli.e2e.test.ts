// wrap and unwrap through the built binary, on a home directory of the test's own.
import { spawn } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ownHome } from '../helpers/home.js';
import { bin, fixture, node, runBin, tempDir } from '../helpers/spy.js';

let temp: ReturnType<typeof tempDir>;
let home: string;
let project: string;
let env: NodeJS.ProcessEnv;
let cursorFile: string;
let vscodeFile: string;

beforeEach(() => {
  temp = tempDir('mcp-spy-wrap-cli-');
  home = join(temp.dir, 'home');
  project = join(temp.dir, 'project');
  mkdirSync(join(home, '.cursor'), { recursive: true });
  mkdirSync(join(project, '.vscode'), { recursive: true });
  cursorFile = join(home, '.cursor', 'mcp.json');
  vscodeFile = join(project, '.vscode', 'mcp.json');
  copyFileSync(fixture('client-configs', 'cursor', 'user.json'), cursorFile);
  copyFileSync(fixture('client-configs', 'vscode', 'workspace.json'), vscodeFile);
  env = ownHome(home);
});
afterEach(() => temp.remove());

const wrapBin = (args: string[]) => runBin(args, { cwd: project, env });

/** Runs wrap on a terminal (util-linux script gives it one), answering its question once asked. */
function wrapOnTerminal(answer: string): Promise<{ code: number | null; text: string }> {
  return new Promise((resolve, reject) => {
    const command = [node, bin, 'wrap', 'cursor'].map((word) => `'${word}'`).join(' ');
    const child = spawn('script', ['-qec', command, '/dev/null'], {
      cwd: project,
      env: { ...process.env, ...env, FORCE_COLOR: '0' },
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    let text = '';
    let answered = false;
    child.stdout.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
      if (!answered && text.includes('[y/N] ')) {
        answered = true;
        child.stdin.write(`${answer}\n`);
      }
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, text }));
  });
}
const bytes = (file: string) => readFileSync(file, 'utf8');

describe('mcp-spy wrap', () => {
  it('without --yes and without a terminal, shows what would change, writes nothing and says how to apply', async () => {
    const before = [bytes(cursorFile), bytes(vscodeFile)];
    const result = await wrapBin(['wrap']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(1);
    expect(result.text).toContain(
      `${cursorFile} (Cursor)\n  + web-search (user): wrap: npx -y mcp-server-web-search\n  - remote (user): a remote server (https://example.com/mcp) is not wrapped`,
    );
    expect(result.text).toContain(
      `${vscodeFile} (VS Code)\n  + Perplexity (project): wrap: npx -y server-perplexity-ask\n  + fetch (project): wrap: uvx mcp-server-fetch\n`,
    );
    expect(result.text).toContain('nothing written: to wrap 3 servers in 2 files, run again with --yes');
    expect([bytes(cursorFile), bytes(vscodeFile)]).toEqual(before);
  });

  it('--dry-run prints a unified diff of one server and writes nothing', async () => {
    const before = bytes(vscodeFile);
    const result = await wrapBin(['wrap', '--server', 'fetch', '--dry-run']);
    expect(result.code).toBe(0);
    expect(result.text).toContain(`--- ${vscodeFile}\n+++ ${vscodeFile}\n@@ -21,8 +21,8 @@\n`);
    expect(result.text).toContain(
      `-      "command": "uvx",\n-      "args": ["mcp-server-fetch"],\n+      "command": ${JSON.stringify(node)},\n+      "args": [${JSON.stringify(bin)}, "--client", "vscode", "--name", "fetch", "--", "uvx", "mcp-server-fetch"],\n`,
    );
    expect(result.text).not.toContain('Perplexity (project)');
    expect(result.text).not.toContain(cursorFile);
    expect(result.text).toContain('(dry run: nothing written)');
    expect(bytes(vscodeFile)).toBe(before);
  });

  it('--yes wraps, says how the client notices; again changes nothing; unwrap gives back the bytes', async () => {
    const before = [bytes(cursorFile), bytes(vscodeFile)];
    const wrapped = await wrapBin(['wrap', '--yes']);
    expect(wrapped.stderr).toBe('');
    expect(wrapped.code).toBe(0);
    expect(wrapped.text).toContain(`wrapped 1 server in ${cursorFile} (backup: ${cursorFile}.mcp-spy-backup)`);
    expect(wrapped.text).toContain(`wrapped 2 servers in ${vscodeFile} (backup: ${vscodeFile}.mcp-spy-backup)`);
    expect(wrapped.text).toContain('Cursor notices the change once you turn the server off and on in Cursor Settings > MCP (or restart Cursor).');
    expect(wrapped.text).toContain(`Each run of a wrapped server writes its record to ${join(home, '.local', 'state', 'mcp-spy', 'sessions')}`);
    // The manifest holds parts of configs (env values, tokens): private, as the records are.
    expect(statSync(join(home, '.local', 'state', 'mcp-spy', 'wrapped.json')).mode & 0o777).toBe(0o600);
    const once = [bytes(cursorFile), bytes(vscodeFile)];
    expect(once[1]).toContain('// A remote server: not wrapped.');

    const again = await wrapBin(['wrap', '--yes']);
    expect(again.code).toBe(0);
    expect(again.text).toContain('  - web-search (user): already runs mcp-spy: left as it is');
    expect(again.text).toContain('nothing to wrap');
    expect([bytes(cursorFile), bytes(vscodeFile)]).toEqual(once);

    const unwrapped = await wrapBin(['unwrap']);
    expect(unwrapped.stderr).toBe('');
    expect(unwrapped.code).toBe(0);
    expect(unwrapped.text).toContain(`${vscodeFile}\n  Perplexity: restored\n  fetch: restored\n`);
    expect([bytes(cursorFile), bytes(vscodeFile)]).toEqual(before);
    expect((await wrapBin(['unwrap'])).text).toBe('nothing to unwrap: no entry wrapped by mcp-spy wrap is recorded for these\n');
  });

  it('a file that does not parse, and a read-only file: one line each, exit 2, the files untouched, the others wrapped', async () => {
    writeFileSync(vscodeFile, '{ "servers": { "a": { "command": "x" } ');
    chmodSync(cursorFile, 0o444);
    const cursorBefore = bytes(cursorFile);
    const result = await wrapBin(['wrap', '--yes']);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      `mcp-spy: cannot wrap ${vscodeFile}: not valid JSON with comments at line 1, column 40: a closing brace expected\nmcp-spy: cannot wrap ${cursorFile}: it is read-only (mode 0444)\n`,
    );
    expect(bytes(vscodeFile)).toBe('{ "servers": { "a": { "command": "x" } ');
    expect(bytes(cursorFile)).toBe(cursorBefore);
  });

  it('--server in a file that cannot be read: its reason alone, not that the server is not there', async () => {
    writeFileSync(cursorFile, '{\n  // a comment\n  "mcpServers": { "weather": { "command": "node", "args": ["w.js"] } }\n}\n');
    const result = await wrapBin(['wrap', 'cursor', '--server', 'weather', '--yes']);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      `mcp-spy: cannot wrap ${cursorFile}: not valid JSON at line 2, column 3: a comment, which this client does not allow in its file\n`,
    );
  });

  it('--config FILE --format CLIENT: a file where the table does not look; bad use is one line', async () => {
    const file = temp.file('elsewhere.json', readFileSync(fixture('client-configs', 'windsurf', 'mcp_config.json'), 'utf8'));
    const result = await wrapBin(['wrap', '--config', file, '--format', 'windsurf', '--yes']);
    expect(result.code).toBe(0);
    expect(result.text).toContain(`wrapped 2 servers in ${file}`);
    const missing = await wrapBin(['wrap', '--config', file]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe('mcp-spy: --config needs the client whose format the file has: --format claude-desktop|claude-code|cursor|vscode|windsurf\n');
    const unknown = await wrapBin(['wrap', 'zed']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe("mcp-spy: unknown client 'zed': one of claude-desktop, claude-code, cursor, vscode, windsurf\n");
    const unwrapped = await wrapBin(['unwrap', '--config', file, '--format', 'windsurf']);
    expect(unwrapped.code).toBe(0);
    expect(bytes(file)).toBe(readFileSync(fixture('client-configs', 'windsurf', 'mcp_config.json'), 'utf8'));
  });

  it('on a terminal, asks; anything but y writes nothing, y writes', async () => {
    const before = bytes(cursorFile);
    const no = await wrapOnTerminal('n');
    expect(no.text).toContain('wrap 1 server in 1 file? [y/N] ');
    expect(no.text).toContain('nothing written');
    expect(no.code).toBe(1);
    expect(bytes(cursorFile)).toBe(before);
    const yes = await wrapOnTerminal('y');
    expect(yes.text).toContain(`wrapped 1 server in ${cursorFile}`);
    expect(yes.code).toBe(0);
    expect(bytes(cursorFile)).toContain('"--name", "web-search", "--", "npx"');
  });

  it('unwrap names an entry that runs the spy but was not wrapped by wrap, and leaves it', async () => {
    const byHand = '{ "mcpServers": { "mine": { "command": "node", "args": ["/opt/mcp-spy/bin/mcp-spy.js", "--", "node", "server.js"] } } }\n';
    writeFileSync(cursorFile, byHand);
    const result = await wrapBin(['unwrap', 'cursor']);
    expect(result.code).toBe(0);
    expect(result.text).toBe(
      `${cursorFile}\n  mine: runs mcp-spy, but not as mcp-spy wrap left it (wrapped by hand?): left as it is\nnothing to unwrap: no entry wrapped by mcp-spy wrap is recorded for these\n`,
    );
    expect(bytes(cursorFile)).toBe(byHand);
  });
});
