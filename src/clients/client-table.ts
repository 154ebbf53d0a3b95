import { join, win32, posix } from 'node:path';

/** The clients whose configs `wrap` knows, by the id used on the command line and in session names. */
export const clientIds = ['claude-desktop', 'claude-code', 'cursor', 'vscode', 'windsurf'] as const;
export type ClientId = (typeof clientIds)[number];

/** Whose servers a config file holds: the user's everywhere, one project's shared file, or one project's private ones. */
export type Scope = 'user' | 'project' | 'local';

/** What the table's paths are built from: the machine, the user and the project (the working directory). */
export interface PlaceContext {
  platform: NodeJS.Platform;
  home: string;
  env: NodeJS.ProcessEnv;
  project: string;
}

/** One config file of a client: where it is, and where in it the servers are. */
export interface ConfigPlace {
  client: ClientId;
  scope: Scope;
  file: string;
  /** The keys from the file's top to the object that maps names to server entries. */
  serversAt: string[];
}

export interface ClientFacts {
  title: string;
  /** json: strict JSON (the file is refused if it has comments); jsonc: comments and trailing commas allowed, and kept. */
  syntax: 'json' | 'jsonc';
  /** The key of the object that maps names to server entries. */
  serversKey: string;
  places: (context: PlaceContext) => Omit<ConfigPlace, 'client'>[];
  /** What the user does for the client to notice a changed config. */
  restart: string;
  /** The client's own command to add a server, when it has one (the README says when it is the better route). */
  addCommand?: string;
}

/** The per-user settings directory of an app on each platform (Electron's userData). */
function appData(context: PlaceContext, app: string): string {
  if (context.platform === 'darwin') return posix.join(context.home, 'Library', 'Application Support', app);
  if (context.platform === 'win32') return win32.join(context.env.APPDATA || win32.join(context.home, 'AppData', 'Roaming'), app);
  return join(context.env.XDG_CONFIG_HOME || join(context.home, '.config'), app);
}

const pathOf = (context: PlaceContext) => (context.platform === 'win32' ? win32 : posix);

/** Claude Code keeps its user and local scopes in one file, ~/.claude.json, or in CLAUDE_CONFIG_DIR when set. */
function claudeJson(context: PlaceContext): string {
  return pathOf(context).join(context.env.CLAUDE_CONFIG_DIR || context.home, '.claude.json');
}

/** Every client the wrap knows, as data: adding one is a row here and a fixture. */
export const clients = {
  'claude-desktop': {
    title: 'Claude Desktop',
    syntax: 'json',
    serversKey: 'mcpServers',
    places: (context) => [{ scope: 'user', file: pathOf(context).join(appData(context, 'Claude'), 'claude_desktop_config.json'), serversAt: ['mcpServers'] }],
    restart: 'quit Claude Desktop (from its menu, not the window) and start it again',
  },
  'claude-code': {
    title: 'Claude Code',
    syntax: 'json',
    serversKey: 'mcpServers',
    places: (context) => [
      { scope: 'user', file: claudeJson(context), serversAt: ['mcpServers'] },
      { scope: 'local', file: claudeJson(context), serversAt: ['projects', context.project, 'mcpServers'] },
      { scope: 'project', file: pathOf(context).join(context.project, '.mcp.json'), serversAt: ['mcpServers'] },
    ],
    restart: 'start a new Claude Code session (or reconnect the server with /mcp)',
    addCommand: 'claude mcp add NAME -- COMMAND [ARGS...]',
  },
  cursor: {
    title: 'Cursor',
    syntax: 'json',
    serversKey: 'mcpServers',
    places: (context) => [
      { scope: 'user', file: pathOf(context).join(context.home, '.cursor', 'mcp.json'), serversAt: ['mcpServers'] },
      { scope: 'project', file: pathOf(context).join(context.project, '.cursor', 'mcp.json'), serversAt: ['mcpServers'] },
    ],
    restart: 'turn the server off and on in Cursor Settings > MCP (or restart Cursor)',
  },
  vscode: {
    title: 'VS Code',
    syntax: 'jsonc',
    serversKey: 'servers',
    places: (context) => [
      { scope: 'user', file: pathOf(context).join(appData(context, 'Code'), 'User', 'mcp.json'), serversAt: ['servers'] },
      { scope: 'project', file: pathOf(context).join(context.project, '.vscode', 'mcp.json'), serversAt: ['servers'] },
    ],
    restart: 'restart the server (MCP: List Servers > Restart) or reload the window',
    addCommand: 'code --add-mcp \'{"name":"NAME","command":"COMMAND","args":[...]}\'',
  },
  windsurf: {
    title: 'Windsurf',
    syntax: 'json',
    serversKey: 'mcpServers',
    places: (context) => [{ scope: 'user', file: pathOf(context).join(context.home, '.codeium', 'windsurf', 'mcp_config.json'), serversAt: ['mcpServers'] }],
    restart: 'press Refresh in the MCP panel of Windsurf (or restart it)',
  },
} as const satisfies Record<ClientId, ClientFacts>;

export function isClientId(name: string): name is ClientId {
  return (clientIds as readonly string[]).includes(name);
}

/** Every config place of the clients named (all when none), in table order. */
export function configPlaces(ids: readonly ClientId[], context: PlaceContext): ConfigPlace[] {
  return ids.flatMap((client) => (clients[client] as ClientFacts).places(context).map((place) => ({ client, ...place })));
}

/** The syntax of a file, from the client of its first place (every place of one file is one client's). */
export function syntaxOf(places: readonly ConfigPlace[]): ClientFacts['syntax'] {
  return (clients[places[0]!.client] as ClientFacts).syntax;
}
