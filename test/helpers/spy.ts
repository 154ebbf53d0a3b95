// The built bin, the fixtures, temporary directories and records: shared by the end-to-end tests.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { EntryField } from '../../src/record/entry-fields.js';
import type { FrameEntry, RecordEntry } from '../../src/record/schema.js';
import { isFrameEntry } from '../../src/record/frame-message.js';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { recordLine } from '../../src/record/entry-schema.js';
import { createCapturedAnalysis } from '../../src/record/captured.js';
import { parseRecordLine, readRecordLine } from '../../src/record/reader.js';

export const root = fileURLToPath(new URL('../..', import.meta.url));
export const bin = join(root, 'bin', 'mcp-spy.js');
export const node = process.execPath;
export const fixture = (...parts: string[]) => join(root, 'fixtures', ...parts);
export const everythingServer = join(root, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');

/** A fresh temporary directory: `file` writes a file in it, `remove` deletes it all. */
export function tempDir(prefix = 'mcp-spy-test-'): { dir: string; file: (name: string, text: string) => string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return {
    dir,
    file: (name, text) => {
      const path = join(dir, name);
      writeFileSync(path, text);
      return path;
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

export interface RunResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: Buffer;
  /** stdout as UTF-8 text. */
  text: string;
  stderr: string;
  /** From start to end, in ms. */
  durationMs: number;
}

export interface RunOptions {
  input?: Buffer | string;
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** Called once the process runs, to talk to it or signal it. */
  onStart?: (child: ReturnType<typeof spawn>) => void;
  /** Where the spy's stderr goes: read by the test (default), /dev/null, or an open file descriptor. */
  stderr?: 'pipe' | 'ignore' | number;
  /** Run as this user and group (a test run as root plays another user). */
  uid?: number;
  gid?: number;
  /** Another copy of the bin to run (a package with a part of it missing). */
  bin?: string;
}

/** A stream spawned as 'pipe': spawn's types cannot tell it is there when another of the stdio is a descriptor. */
export function piped<T>(stream: T | null, name: string): T {
  if (stream === null) throw new Error(`the child's ${name} is not a pipe`);
  return stream;
}

/** Runs the built mcp-spy with arguments (in a fresh directory unless told); resolves with everything it wrote and how it ended. */
export function runBin(args: string[], options: RunOptions = {}): Promise<RunResult> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(node, [options.bin ?? bin, ...args], {
      cwd: options.cwd ?? tempDir().dir,
      env: { ...process.env, FORCE_COLOR: '0', ...options.env },
      stdio: ['pipe', 'pipe', options.stderr ?? 'pipe'],
      ...(options.uid === undefined ? {} : { uid: options.uid, gid: options.gid ?? options.uid }),
    });
    const [input, output] = [piped(child.stdin, 'stdin'), piped(child.stdout, 'stdout')];
    const stdout: Buffer[] = [];
    let stderr = '';
    output.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      const bytes = Buffer.concat(stdout);
      resolve({ code, signal, stdout: bytes, text: bytes.toString('utf8'), stderr, durationMs: performance.now() - started });
    });
    input.on('error', () => {});
    options.onStart?.(child);
    if (options.input !== undefined) input.end(options.input);
    else if (!options.onStart) input.end();
  });
}

/** The same as runBin, run to its end synchronously: for short commands over files (view, stats, check). */
export function runBinSync(args: string[], options: Pick<RunOptions, 'input' | 'cwd'> = {}): RunResult {
  const started = performance.now();
  const result = spawnSync(node, [bin, ...args], {
    input: options.input,
    cwd: options.cwd,
    env: { ...process.env, FORCE_COLOR: '0' },
    maxBuffer: 64 * 1024 * 1024,
  });
  return {
    code: result.status,
    signal: result.signal,
    stdout: result.stdout,
    text: result.stdout.toString('utf8'),
    stderr: result.stderr.toString('utf8'),
    durationMs: performance.now() - started,
  };
}

type FieldOf<K extends PropertyKey> = RecordEntry extends infer E ? (E extends unknown ? (K extends keyof E ? E[K] : never) : never) : never;

/**
 * An entry as a test looks at it: the union (narrowing by kind works as in src/), with any field of
 * any kind readable, typed as the kinds that have it type it: a test finds entries by any field.
 */
export type TestEntry = RecordEntry & { [K in EntryField]?: FieldOf<K> };

/**
 * One line of a record the spy wrote, read as every reader reads it (so `frameText` works on it);
 * a line that is not a valid entry of the current version fails the test.
 */
export function readLine(line: string, lineNo: number, path: string): TestEntry {
  const item = parseRecordLine(line, lineNo, path);
  if (!item.ok) throw new Error(`${path}:${lineNo}: ${item.reason}`);
  const written: unknown = JSON.parse(line);
  if (!validEntry(written)) throw new Error(`${path}:${lineNo}: not a valid entry of docs/record.schema.json: ${schemaErrors(written)}`);
  return item.entry;
}

let compiled: ValidateFunction | undefined;

/** Whether a written line holds to the published record schema (docs/record.schema.json). */
function validEntry(value: unknown): boolean {
  compiled ??= new Ajv2020({ strict: false }).compile(JSON.parse(readFileSync(join(root, 'docs', 'record.schema.json'), 'utf8')));
  return compiled(value);
}

/** The reasons a line fails the schema, for the entry kind it claims (oneOf reports every branch). */
function schemaErrors(value: unknown): string {
  const kind = (value as { kind?: unknown }).kind;
  const branch = recordLine.options.find((option) => option.shape.kind.safeParse(kind).success);
  if (!branch) return `unknown kind ${JSON.stringify(kind)}`;
  const result = branch.safeParse(value);
  return result.success
    ? 'valid for its kind, yet not for the whole schema'
    : result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ');
}

/** Every entry of a record the spy wrote, as readers see them (captured frames analysed in their place), each line checked as `readLine` does. */
export function readEntries(path: string): TestEntry[] {
  const analysis = createCapturedAnalysis();
  const lines = readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line !== '');
  const entries = lines.flatMap((line, index) => {
    const item = readRecordLine(line, index + 1, path);
    if (!item.ok) throw new Error(`${path}:${index + 1}: ${item.reason}`);
    if (item.entry.kind !== 'captured') readLine(line, index + 1, path);
    else if (!validEntry(JSON.parse(line)))
      throw new Error(`${path}:${index + 1}: not a valid entry of docs/record.schema.json: ${schemaErrors(JSON.parse(line))}`);
    return analysis.read(item.entry, line);
  });
  return entries;
}

/** Frames only (entries with a direction). */
export const framesOf = <E extends RecordEntry>(entries: E[]) => entries.filter((entry): entry is E & FrameEntry => isFrameEntry(entry));

/** Runs a client script from fixtures/clients (SCENARIO and more in `env`) and parses the JSON it prints. */
export function runClient(script: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const child = spawn(node, [fixture('clients', script), ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) reject(new Error(`${script} failed (${code}): ${err}`));
      else resolve(JSON.parse(out));
    });
  });
}

/** Records a client script's session through the stdio spy (`log` too if given); returns the client's results. */
export function recordSession(script: string, record: string, server: string[], env: NodeJS.ProcessEnv = {}, log?: string): Promise<unknown> {
  const sinks = ['--record', record, ...(log ? ['--log', log] : ['--no-log'])];
  return runClient(script, ['--', node, bin, ...sinks, '-q', '--', ...server], env);
}

/**
 * A raw JSON-RPC client of the stdio spy (recording to `record`) in front of `server`: `send` writes a
 * message, `until` resolves once the server's output holds a text; the test drives the rest.
 */
export function rawSpyClient(record: string, server: string[]) {
  const child = spawn(node, [bin, '--record', record, '--no-log', '-q', '--', ...server], { stdio: ['pipe', 'pipe', 'ignore'] });
  let seen = '';
  const until = (text: string) =>
    new Promise<void>((resolve) => {
      const look = () => seen.includes(text) && (child.stdout.off('data', read), resolve());
      const read = (chunk: Buffer) => ((seen += chunk.toString('utf8')), look());
      child.stdout.on('data', read);
      look();
    });
  const send = (message: object) => child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
  return { child, until, send };
}

/** Lines a spy must pass untouched: CRLF, blank lines, bytes that are not UTF-8, a last line without newline. */
export const awkwardLines = Buffer.concat([
  Buffer.from('{"jsonrpc":"2.0","id":1,"method":"ping"}\r\n'),
  Buffer.from('\n\n'),
  Buffer.from([0xff, 0xfe, 0x41, 0x0a]),
  Buffer.from('{"jsonrpc":"2.0","method":"notifications/x"}\n'),
  Buffer.from('{"jsonrpc":"2.0","id":2,"method":"tail"}'),
]);
