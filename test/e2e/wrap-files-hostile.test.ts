// What wrap and unwrap do with config files that are not the plain case: their modes, owners and kinds.
import { chmodSync, chownSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
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
  env = { HOME: home, XDG_STATE_HOME: join(home, '.local', 'state'), XDG_CONFIG_HOME: join(home, '.config'), MCP_SPY_DIR: '', CLAUDE_CONFIG_DIR: '', APPDATA: '' };
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
