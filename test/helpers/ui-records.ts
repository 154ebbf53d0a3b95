// Record lines of a small session, as the spy writes them (v2), for the console's tests.
import { parseRecordLine } from '../../src/record/reader.js';
import type { Row, SourceEntry } from '../../src/ui/rows.js';
import type { EntryLoader } from '../../src/ui/state.js';

type Fields = Record<string, unknown>;

/** Builds v2 record lines: frames carry their message last, as `msg`. */
export function recordWriter(session = 's1', start = Date.UTC(2026, 11, 1, 17, 0, 0)) {
  let seq = 0;
  const lines: string[] = [];
  const at = () => new Date(start + seq * 10).toISOString();
  return {
    lines,
    event(fields: Fields): number {
      seq++;
      lines.push(JSON.stringify({ v: 2, seq, t: at(), session, ...fields }));
      return seq;
    },
    frame(dir: 'c2s' | 's2c', kind: string, fields: Fields, message: Fields): number {
      seq++;
      const msg = JSON.stringify({ jsonrpc: '2.0', ...message });
      const head = JSON.stringify({ v: 2, seq, t: at(), session, dir, kind, ...fields, bytes: Buffer.byteLength(msg) });
      lines.push(`${head.slice(0, -1)},"msg":${msg}}`);
      return seq;
    },
  };
}

/** A session: spawn, initialize, tools/list, two calls (one with progress, one failing), an orphan, exit. */
export function sampleSession(session = 's1', names: { server?: string; start?: number } = {}) {
  const w = recordWriter(session, names.start);
  const server = names.server ?? 'everything';
  w.event({ kind: 'spawn', transport: 'stdio', command: ['node', 'server.js'], pid: 42, name: 'my-everything', client: 'claude-code' });
  const init = w.frame(
    'c2s',
    'request',
    { method: 'initialize', id: 1 },
    { id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test-client', version: '1.0.0' } } },
  );
  w.frame(
    's2c',
    'response',
    { method: 'initialize', id: 1, latencyMs: 5, rev: '2025-06-18', related: { seq: init, id: 1, method: 'initialize' } },
    { id: 1, result: { protocolVersion: '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: server, version: '2.0.0' } } },
  );
  const list = w.frame('c2s', 'request', { method: 'tools/list', id: 2 }, { id: 2, method: 'tools/list' });
  const tools = [
    { name: 'echo', description: 'Echoes', inputSchema: { type: 'object' } },
    { name: 'add', description: 'Adds two numbers', inputSchema: { type: 'object' } },
  ];
  w.frame('s2c', 'response', { method: 'tools/list', id: 2, latencyMs: 3, related: { seq: list, id: 2, method: 'tools/list' } }, { id: 2, result: { tools } });
  const call = w.frame(
    'c2s',
    'request',
    { method: 'tools/call', id: 3, tool: 'echo' },
    { id: 3, method: 'tools/call', params: { name: 'echo', arguments: { message: 'hello' }, _meta: { progressToken: 't3' } } },
  );
  w.frame(
    's2c',
    'notification',
    { method: 'notifications/progress', related: { seq: call, id: 3, method: 'tools/call', tool: 'echo' } },
    { method: 'notifications/progress', params: { progressToken: 't3', progress: 1 } },
  );
  w.frame(
    's2c',
    'response',
    { method: 'tools/call', id: 3, tool: 'echo', latencyMs: 120, related: { seq: call, id: 3, method: 'tools/call', tool: 'echo' } },
    { id: 3, result: { content: [{ type: 'text', text: 'Echo: hello' }] } },
  );
  const bad = w.frame(
    'c2s',
    'request',
    { method: 'tools/call', id: 4, tool: 'add' },
    { id: 4, method: 'tools/call', params: { name: 'add', arguments: { a: 'x' } } },
  );
  w.frame(
    's2c',
    'tool-error',
    { method: 'tools/call', id: 4, tool: 'add', latencyMs: 700, related: { seq: bad, id: 4, method: 'tools/call', tool: 'add' } },
    { id: 4, result: { isError: true, content: [{ type: 'text', text: 'a is not a number' }] } },
  );
  w.frame('s2c', 'response', { id: 99, notes: ['orphan-response'] }, { id: 99, result: {} });
  w.event({ kind: 'exit', code: 0, signal: null });
  return w.lines;
}

/** The lines of a file as a source hands them to the console, with a loader that reads them again. */
export function sourceEntries(file: string, lines: string[]): SourceEntry[] {
  let offset = 0;
  return lines.map((line, index) => {
    const read = parseRecordLine(line, index + 1);
    if (!read.ok) throw new Error(`line ${index + 1}: ${read.reason}`);
    const item = { file, entry: read.entry, lineNo: index + 1, offset, length: Buffer.byteLength(line) };
    offset += Buffer.byteLength(line) + 1;
    return item;
  });
}

/** Reads a row's entry again from the lines of its file, as the file loader does from disk. */
export function memoryLoader(files: Record<string, string[]>): EntryLoader {
  return (row: Row) => {
    const line = lineAt(files[row.file] ?? [], row);
    if (line === undefined) return undefined;
    const read = parseRecordLine(line, 0);
    return read.ok ? read.entry : undefined;
  };
}

/** The line of a file's lines that a row's offset points at (as `sourceEntries` counts offsets). */
export function lineAt(lines: string[], row: Pick<Row, 'offset'>): string | undefined {
  let offset = 0;
  for (const line of lines) {
    if (offset === row.offset) return line;
    offset += Buffer.byteLength(line) + 1;
  }
  return undefined;
}
