// For the tests of wrap, unwrap and sessions: an environment that sees nothing of the real home.
import { join } from 'node:path';

/**
 * The environment of a command run on a home of the test's own: every place the client table and
 * the state directory look (HOME, XDG dirs, CLAUDE_CONFIG_DIR, APPDATA, MCP_SPY_DIR) is under `home`.
 */
export function ownHome(home: string): NodeJS.ProcessEnv {
  return {
    HOME: home,
    XDG_STATE_HOME: join(home, '.local', 'state'),
    XDG_CONFIG_HOME: join(home, '.config'),
    MCP_SPY_DIR: '',
    CLAUDE_CONFIG_DIR: '',
    APPDATA: '',
  };
}
