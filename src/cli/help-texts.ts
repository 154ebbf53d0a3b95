import { binPath, shellWord } from './invocation.js';

// The help after the options of each command: examples, and what the exit status means.

export const examples = `
Examples:
  mcp-spy -- node server.js                 spy on a stdio server; writes wire.jsonl and wire.log here
  mcp-spy --record /tmp/a.jsonl --no-log -- npx -y @modelcontextprotocol/server-everything stdio
  mcp-spy demo                              see every kind of frame in ten seconds
  mcp-spy replay wire.jsonl -- node server.js   CI: does the server still answer as recorded?
  mcp-spy mock wire.jsonl                   a stand-in server that answers from the recording

In a client's MCP config: mcp-spy wrap puts the spy in front of each server of Claude Desktop,
Claude Code, Cursor, VS Code or Windsurf (mcp-spy unwrap puts them back; mcp-spy sessions lists
what they recorded). By hand, with the absolute path of this mcp-spy (claude_desktop_config.json):
  { "mcpServers": { "weather": {
      "command": ${JSON.stringify(process.execPath)},
      "args": [${JSON.stringify(binPath)}, "--name", "weather", "--", "node", "/abs/path/server.js"] } } }
Claude Code, a server added spied from the start:
  claude mcp add weather -- ${shellWord(process.execPath)} ${shellWord(binPath)} --client claude-code --name weather -- node /abs/path/server.js
With --name, the record goes to the sessions directory (MCP_SPY_DIR, else
$XDG_STATE_HOME/mcp-spy/sessions), one file per run, and no wire.log.

Files: the record (wire.jsonl) and the log (wire.log) go to the working directory; when it is not
writable, to $XDG_STATE_HOME/mcp-spy (or ~/.local/state/mcp-spy). MCP_SPY_DIR names the directory.
A new run appends to an existing record, starting with a spawn event.
Exit status: the server's own (128+n when a signal ended it); 127 when the command is not found,
126 when it cannot be executed, 2 on bad use.`;

export const viewExamples = `
Examples:
  mcp-spy view wire.jsonl                                   the same lines as wire.log
  mcp-spy view wire.jsonl --kind tool-error,protocol-error --method tools/call
  mcp-spy view wire.jsonl --filter 'tool = "search" and latency > 500'
  mcp-spy view wire.jsonl --id 7 --full                     one request and its response, in full
  mcp-spy view wire.jsonl --follow                          a session being recorded by another mcp-spy
  mcp-spy view wire.jsonl --format mermaid                  a sequence diagram as Mermaid text, for Markdown`;

export const uiHelp = `
Examples:
  mcp-spy ui                                                every session in the sessions directory, live and past
  mcp-spy ui wire.jsonl other/                              given records and directories instead
  mcp-spy ui --filter 'tool = "search" and latency > 500'

Keys: arrows or j/k move, Enter opens, Esc goes back, / filters, n/N next/previous, f follows,
p pauses, Tab switches (request/answer in the inspector), y copies a frame, e exports (H as HAR), ? lists them all, q quits.`;

export const checkExamples = `
Examples:
  mcp-spy check wire.jsonl                                  findings as text; exit 1 on errors
  mcp-spy check wire.jsonl --rule method-not-in-revision=off --rule unanswered-request=warn
  mcp-spy check wire.jsonl --format sarif > mcp.sarif       for code scanning
  mcp-spy check wire.jsonl --format junit > mcp-check.xml   for CI test reporters
  mcp-spy check wire.jsonl --baseline mcp-tools.lock.json   also fail on tools that changed since mcp-spy baseline
  mcp-spy check wire.jsonl --expect-tool search --forbid-tool 'delete_*' --max-duration tools/call=2s
                                                            CI assertions: findings (expect-tool, forbid-tool,
                                                            max-duration) in every format`;

export const replayHelp = `
Each session of the recording is replayed in order, against a fresh server process (stdio) or a new
HTTP session (--target). Ignored always: _meta at any depth and a task's createdAt/lastUpdatedAt; add
paths with --ignore or one per line in <record>.ignore. Values the server handed out (taskId, nextCursor,
resource URIs; more with --map) are sent back as the live server gave them, and compare as equal.
Exit status: 0 all same, 1 any difference (changed, missing, extra), 2 bad use.`;

export const mockHelp = `
A request is answered with the recorded response whose method and params match (ids and _meta aside),
in recorded order; the server's notifications and requests recorded with it are sent too. initialize and
server/discover are always answered, with the client's id and revision. A request the recording lacks
gets a JSON-RPC error (-32601 unknown method, -32602 other params: the message shows the nearest
recorded params of the same tool, prompt or resource, or the ones recorded when it has none), or with
--on-miss close, the connection is closed.`;

export const httpExamples = `
Examples:
  mcp-spy http --target http://127.0.0.1:3000/mcp                 listens on 127.0.0.1, prints its URL
  mcp-spy http --target https://api.example.com/mcp --listen 127.0.0.1:7000
  mcp-spy http --target http://127.0.0.1:3000/mcp -- node server.js --port 3000   also runs the server
  mcp-spy http --target http://127.0.0.1:3001/sse                 a legacy HTTP+SSE server

Point the client at the printed URL. Authorization, Proxy-Authorization, Cookie and Set-Cookie values,
and tokens, codes and client secrets in OAuth bodies, are shown as [redacted] in the record and log;
the traffic itself is untouched.
Exit status: 0 when stopped by a signal; the server's own when the server command ends; 2 on bad use;
69 when the spy cannot listen.`;
