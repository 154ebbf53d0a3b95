import { describe, expect, it } from 'vitest';
import { clientIds, configPlaces, type PlaceContext } from '../../src/clients/client-table.js';
import { shapeOf } from '../../src/clients/server-entries.js';
import { spiedCommand, wrappedCommand } from '../../src/clients/spy-invocation.js';

const context = (platform: NodeJS.Platform, home: string, env: NodeJS.ProcessEnv = {}): PlaceContext => ({
  platform,
  home,
  env,
  project: platform === 'win32' ? 'C:\\src\\app' : '/src/app',
});

/** Each place as `client scope file serversAt`, one string per place. */
const placesOf = (ctx: PlaceContext) =>
  configPlaces(clientIds, ctx).map((place) => `${place.client} ${place.scope} ${place.file} ${place.serversAt.join('.')}`);

describe('the clients table', () => {
  it('knows every client and scope on Linux (XDG_CONFIG_HOME honoured)', () => {
    expect(placesOf(context('linux', '/home/dev'))).toEqual([
      'claude-desktop user /home/dev/.config/Claude/claude_desktop_config.json mcpServers',
      'claude-code user /home/dev/.claude.json mcpServers',
      'claude-code local /home/dev/.claude.json projects./src/app.mcpServers',
      'claude-code project /src/app/.mcp.json mcpServers',
      'cursor user /home/dev/.cursor/mcp.json mcpServers',
      'cursor project /src/app/.cursor/mcp.json mcpServers',
      'vscode user /home/dev/.config/Code/User/mcp.json servers',
      'vscode project /src/app/.vscode/mcp.json servers',
      'windsurf user /home/dev/.codeium/windsurf/mcp_config.json mcpServers',
    ]);
    expect(placesOf(context('linux', '/home/dev', { XDG_CONFIG_HOME: '/cfg', CLAUDE_CONFIG_DIR: '/cc' })).slice(0, 2)).toEqual([
      'claude-desktop user /cfg/Claude/claude_desktop_config.json mcpServers',
      'claude-code user /cc/.claude.json mcpServers',
    ]);
  });

  it('uses Application Support on macOS', () => {
    const places = placesOf(context('darwin', '/Users/dev'));
    expect(places[0]).toBe('claude-desktop user /Users/dev/Library/Application Support/Claude/claude_desktop_config.json mcpServers');
    expect(places[6]).toBe('vscode user /Users/dev/Library/Application Support/Code/User/mcp.json servers');
  });

  it('uses APPDATA and backslashes on Windows', () => {
    const places = placesOf(context('win32', 'C:\\Users\\dev', { APPDATA: 'C:\\Users\\dev\\AppData\\Roaming' }));
    expect(places[0]).toBe('claude-desktop user C:\\Users\\dev\\AppData\\Roaming\\Claude\\claude_desktop_config.json mcpServers');
    expect(places[1]).toBe('claude-code user C:\\Users\\dev\\.claude.json mcpServers');
    expect(places[3]).toBe('claude-code project C:\\src\\app\\.mcp.json mcpServers');
    expect(places[6]).toBe('vscode user C:\\Users\\dev\\AppData\\Roaming\\Code\\User\\mcp.json servers');
    expect(places[8]).toBe('windsurf user C:\\Users\\dev\\.codeium\\windsurf\\mcp_config.json mcpServers');
  });
});

describe('entry shapes', () => {
  it.each([
    [{ command: 'npx', args: ['-y', 'pkg'] }, 'stdio'],
    [{ type: 'stdio', command: 'uvx' }, 'stdio'],
    [{ url: 'https://x/mcp' }, 'url'],
    [{ serverUrl: 'https://x/mcp' }, 'url'],
    [{ type: 'http', url: 'https://x/mcp' }, 'url'],
    [{ type: 'sse' }, 'unknown'],
    [{ command: 'x', args: 'not a list' }, 'unknown'],
    [{ args: [] }, 'unknown'],
    ['text', 'unknown'],
    [{ command: '/usr/bin/node', args: ['/opt/mcp-spy/bin/mcp-spy.js', '--client', 'cursor', '--name', 'x', '--', 'npx', 'pkg'] }, 'spied'],
    [{ command: 'mcp-spy', args: ['--', 'node', 's.js'] }, 'spied'],
    [{ command: 'npx', args: ['-y', 'mcp-spy@0.1.0', '--', 'node', 's.js'] }, 'spied'],
    [{ command: 'node', args: ['C:\\tools\\mcp-spy\\bin\\mcp-spy.js', '--', 'node', 's.js'] }, 'spied'],
    // The server's own `--` is not the spy's.
    [{ command: 'npx', args: ['-y', 'some-server', '--', 'mcp-spy'] }, 'stdio'],
  ])('%j is %s', (entry, shape) => {
    expect(shapeOf(entry).shape).toBe(shape);
  });

  it('unwraps the command line the spy runs, its own -- kept', () => {
    const wrapped = wrappedCommand({ node: '/usr/bin/node', bin: '/opt/mcp-spy/bin/mcp-spy.js' }, { client: 'cursor', name: 'w' }, 'npx', [
      '-y',
      'srv',
      '--',
      'x',
    ]);
    expect(wrapped).toEqual({
      command: '/usr/bin/node',
      args: ['/opt/mcp-spy/bin/mcp-spy.js', '--client', 'cursor', '--name', 'w', '--', 'npx', '-y', 'srv', '--', 'x'],
    });
    expect(spiedCommand(wrapped.command, wrapped.args)).toEqual({ command: 'npx', args: ['-y', 'srv', '--', 'x'] });
  });
});
