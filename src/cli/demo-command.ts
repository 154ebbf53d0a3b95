import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { EmptyResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { SpyError } from './errors.js';
import { binPath, commandToRun, shellWord } from './invocation.js';
import { version } from './version.js';

const serverPath = fileURLToPath(new URL('../../fixtures/demo/server.js', import.meta.url));

/** What the demo client does: one of each kind of frame, from a real SDK client. */
async function exercise(client: Client, say: (line: string) => void) {
  const tools = await client.listTools();
  say(`tools/list: ${tools.tools.map((tool) => tool.name).join(', ')}`);
  const sum = await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } });
  say(`tools/call add(2, 3): ${JSON.stringify(sum.content)}`);
  const failed = await client.callTool({ name: 'divide', arguments: { a: 1, b: 0 } });
  say(`tools/call divide(1, 0): isError=${String(failed.isError)} ${JSON.stringify(failed.content)}`);
  const resource = await client.readResource({ uri: 'greeting://newcomer' });
  say(`resources/read greeting://newcomer: ${JSON.stringify(resource.contents)}`);
  const prompt = await client.getPrompt({ name: 'review-code', arguments: { code: 'let x = 1' } });
  say(`prompts/get review-code: ${prompt.messages.length} message(s)`);
  try {
    await client.request({ method: 'tools/fly', params: {} }, EmptyResultSchema);
  } catch (error) {
    say(`tools/fly: ${(error as Error).message}`);
  }
}

function countKinds(recordPath: string): string {
  const counts = new Map<string, number>();
  for (const line of readFileSync(recordPath, 'utf8').split('\n')) {
    if (!line) continue;
    const kind = (JSON.parse(line) as { kind: string }).kind;
    counts.set(kind, (counts.get(kind) ?? 0) + 1);
  }
  return [...counts].map(([kind, count]) => `${kind} ${count}`).join(', ');
}

/** `mcp-spy demo`: a real SDK client and a bundled server, with the spy between them. */
export async function runDemo(options: { dir?: string }): Promise<number> {
  let dir: string;
  try {
    dir = options.dir ? resolve(options.dir) : mkdtempSync(join(tmpdir(), 'mcp-spy-demo-'));
    // Private whatever the umask: the demo's record is a record like any other.
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch (error) {
    throw new SpyError(`cannot create the demo directory: ${(error as Error).message}`);
  }
  const record = join(dir, 'wire.jsonl');
  const log = join(dir, 'wire.log');
  const say = (line: string) => process.stdout.write(`${line}\n`);
  say(`mcp-spy demo: an SDK client talks to a demo server through the spy; the live view is on stderr.\n`);
  const client = new Client({ name: 'mcp-spy-demo-client', version });
  client.onerror = () => {};
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [binPath, '--record', record, '--log', log, '--', process.execPath, serverPath],
    env: process.env as Record<string, string>,
    stderr: 'inherit',
  });
  await client.connect(transport);
  await exercise(client, (line) => say(`  client got ${line}`));
  await client.close();
  say(`\nRecorded: ${countKinds(record)}`);
  say(`The record: ${record}`);
  say(`The log:    ${log}`);
  say(`Next: ${commandToRun()} view ${shellWord(record)} --kind tool-error,protocol-error,invalid`);
  say(`See it: ${commandToRun()} report ${shellWord(record)}`);
  // The user's next question once the demo works: the same spy in front of a server of their own.
  say(`Yours:  ${commandToRun()} -- node server.js   (any server's command after --; README, "Spy on a stdio server")`);
  return 0;
}
