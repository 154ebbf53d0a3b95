import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { EmptyResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { readRecording } from '../record/open-recording.js';
import { makeDirectory } from '../record/paths.js';
import { SpyError } from './errors.js';
import { binPath, commandToRun, shellWord } from './invocation.js';
import { version } from './version.js';

const serverPath = fileURLToPath(new URL('../../fixtures/demo/server.js', import.meta.url));

/** What the demo client does: one of each kind of frame, from a real SDK client. */
async function exercise(client: Client, say: (line: string) => Promise<void>) {
  const tools = await client.listTools();
  await say(`tools/list: ${tools.tools.map((tool) => tool.name).join(', ')}`);
  const sum = await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } });
  await say(`tools/call add(2, 3): ${JSON.stringify(sum.content)}`);
  const failed = await client.callTool({ name: 'divide', arguments: { a: 1, b: 0 } });
  await say(`tools/call divide(1, 0): isError=${String(failed.isError)} ${JSON.stringify(failed.content)}`);
  const resource = await client.readResource({ uri: 'greeting://newcomer' });
  await say(`resources/read greeting://newcomer: ${JSON.stringify(resource.contents)}`);
  const prompt = await client.getPrompt({ name: 'review-code', arguments: { code: 'let x = 1' } });
  await say(`prompts/get review-code: ${prompt.messages.length} message(s)`);
  try {
    await client.request({ method: 'tools/fly', params: {} }, EmptyResultSchema);
  } catch (error) {
    await say(`tools/fly: ${(error as Error).message}`);
  }
}

/**
 * The answers (of any kind) the record holds so far; once it holds captured frames, no more to wait
 * for (the live view leaves those out).
 */
function answersRecorded(recordPath: string): number {
  try {
    const lines = readFileSync(recordPath, 'utf8').split('\n');
    if (lines.some((line) => line.includes('"kind":"captured"'))) return Number.POSITIVE_INFINITY;
    return lines.filter((line) => line.includes('"dir":"s2c"') && /"kind":"(response|tool-error|protocol-error)"/.test(line)).length;
  } catch {
    return 0;
  }
}

/**
 * Waits until the record holds `count` answers: the spy's live view (written right after the record)
 * then shows an answer before the client's line about it, not after (its observer runs behind the
 * traffic). At most 5 s a line, so a spy that records nothing (a full disk) costs the demo little.
 */
async function recorded(recordPath: string, count: number): Promise<void> {
  const until = Date.now() + 5000;
  while (answersRecorded(recordPath) < count && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 10));
}

/** The kinds of this run's entries, as readers see them: those after the record's first `skip` lines (a record is appended to). */
async function countKinds(recordPath: string, skip: number): Promise<string> {
  const counts = new Map<string, number>();
  for await (const { entry, lineNo } of readRecording(recordPath)) {
    if (lineNo <= skip) continue;
    counts.set(entry.kind, (counts.get(entry.kind) ?? 0) + 1);
  }
  return [...counts].map(([kind, count]) => `${kind} ${count}`).join(', ');
}

/** `mcp-spy demo`: a real SDK client and a bundled server, with the spy between them. */
export async function runDemo(options: { dir?: string }): Promise<number> {
  let dir = options.dir ? resolve(options.dir) : join(tmpdir(), 'mcp-spy-demo-XXXXXX');
  try {
    if (!options.dir) dir = mkdtempSync(join(tmpdir(), 'mcp-spy-demo-'));
    // Private whatever the umask: the demo's record is a record like any other. One level at a
    // time: a recursive mkdir loops for ever under /proc.
    makeDirectory(dir);
  } catch (error) {
    // The system's words without its code and call: `ENOENT: no such file or directory, mkdir '...'`.
    const words = (error as Error).message.replace(/^E[A-Z]+: /, '').replace(/, mkdir .*$/, '');
    throw new SpyError(`cannot create the demo directory ${dir}: ${words}`);
  }
  const record = join(dir, 'wire.jsonl');
  const log = join(dir, 'wire.log');
  const say = (line: string) => process.stdout.write(`${line}\n`);
  say(`mcp-spy demo: an SDK client talks to a demo server through the spy; the live view is on stderr.\n`);
  const earlier = answersRecorded(record);
  const linesBefore = existsSync(record) ? readFileSync(record, 'utf8').split('\n').length - 1 : 0;
  const client = new Client({ name: 'mcp-spy-demo-client', version });
  client.onerror = () => {};
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [binPath, '--record', record, '--log', log, '--', process.execPath, serverPath],
    env: process.env as Record<string, string>,
    stderr: 'inherit',
  });
  await client.connect(transport);
  // The first answer is initialize's; each line of the client's follows one more (after a run before
  // it in the same --dir: a record is appended to).
  let answers = earlier + 1;
  await exercise(client, async (line) => {
    await recorded(record, ++answers);
    say(`  client got ${line}`);
  });
  await client.close();
  say(`\nRecorded: ${await countKinds(record, linesBefore)}`);
  say(`The record: ${record}`);
  say(`The log:    ${log}`);
  say(`Next: ${commandToRun()} view ${shellWord(record)} --kind tool-error,protocol-error,invalid`);
  say(`See it: ${commandToRun()} report ${shellWord(record)}`);
  // The user's next question once the demo works: the same spy in front of a server of their own.
  say(`Yours:  ${commandToRun()} -- node server.js   (any server's command after --; README, "Spy on a stdio server")`);
  return 0;
}
