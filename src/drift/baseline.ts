import { readFileSync } from 'node:fs';
import { isObject, type JsonObject } from '../protocol/jsonrpc.js';
import { tableOf } from '../protocol/own-table.js';
import { maxDepth, nestsDeeper } from '../protocol/depth.js';
import { boundedJson } from '../render/bounded-json.js';
import { printableJson, sanitize } from '../render/sanitize.js';
import { readFailureWords } from '../record/reader.js';
import { learnFromFrame, newSessionFacts } from '../record/session-facts.js';
import type { Recording } from '../recording/load.js';
import { toolHash, unnamedServer, type BaselineTools, type PinnedTool } from '../wire/correlate/tool-pin.js';

/** The format of a baseline file, written in it so a later mcp-spy can tell what it reads. */
export const baselineVersion = 1;

/** A baseline file that cannot be used: one line that says why. */
export class BaselineError extends Error {
  override name = 'BaselineError';
}

/** The tools each server of a recording listed (its last list wins), pinned: the baseline's content. */
export function baselineOf(recording: Recording): BaselineTools {
  const servers = tableOf<Record<string, PinnedTool>>([]);
  for (const session of recording.sessions) {
    const facts = newSessionFacts(session.id);
    for (const frame of session.frames) learnFromFrame(facts, frame.entry, frame.message);
    if (facts.tools.size === 0) continue;
    const name = facts.server?.name ?? unnamedServer;
    const pinned = (servers[name] ??= tableOf([]));
    for (const [tool, definition] of facts.tools) pinned[tool] = { sha256: toolHash(definition), definition };
  }
  return servers;
}

/** Objects with their keys sorted, so the file diffs well in review and is the same for the same tools. */
function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted);
  if (!isObject(value)) return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sorted(value[key])]),
  );
}

// Characters a reviewer would not see in a pull request (soft hyphen, zero-width, word joiners, BOM,
// Unicode tags): a poisoned description must not pass review looking clean.
const unseen = /[\u00ad\u180e\u200b-\u200f\u2060-\u2064\ufeff]|\udb40[\udc00-\udc7f]/g;
// A tag is a surrogate pair: each of its two UTF-16 units is escaped, as JSON spells it.
const escaped = (chars: string) => Array.from({ length: chars.length }, (_, at) => `\\u${chars.charCodeAt(at).toString(16).padStart(4, '0')}`).join('');

/**
 * The baseline file's text: readable JSON, one field a line, keys sorted; characters a reader cannot
 * see (controls, bidirectional overrides, zero-width, tags) written as \u escapes, the same JSON.
 */
export function baselineText(tools: BaselineTools, generator: string): string {
  const servers = Object.fromEntries(Object.entries(tools).map(([server, pinned]) => [server, { tools: pinned }]));
  return `${printableJson({ mcpSpyBaseline: baselineVersion, generator, servers: sorted(servers) }, 2).replace(unseen, escaped)}\n`;
}

function pinnedTool(where: string, value: unknown): PinnedTool {
  if (!isObject(value) || typeof value.sha256 !== 'string' || !isObject(value.definition))
    throw new BaselineError(`${where}: expected {"sha256": "...", "definition": {...}}`);
  if (toolHash(value.definition) !== value.sha256)
    throw new BaselineError(`${where}: its sha256 does not match its definition (edited by hand? write it again with mcp-spy baseline)`);
  return { sha256: value.sha256, definition: value.definition as JsonObject };
}

/** Why the format named in a baseline is not this build's: newer (update), or not a format at all. */
function formatProblem(path: string, format: unknown): string {
  if (typeof format === 'number' && Number.isInteger(format) && format > baselineVersion) {
    return `${path}: baseline format ${format} is newer than this mcp-spy reads (${baselineVersion}); update mcp-spy`;
  }
  return `${path}: baseline format ${sanitize(boundedJson(format, 40))} is not one this mcp-spy reads (it reads ${baselineVersion}, a number)`;
}

/** Reads a baseline file; anything wrong with it is a BaselineError that names the place. */
export function readBaseline(path: string): BaselineTools {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = readFailureWords(error) ?? code ?? (error as Error).message;
    throw new BaselineError(`cannot read baseline ${path}: ${why}`);
  }
  let document: unknown;
  try {
    // An editor's byte order mark is no reason to refuse a file (records accept one too).
    document = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    throw new BaselineError(`${path} is not an mcp-spy baseline (not JSON: ${(error as Error).message})`);
  }
  if (!isObject(document) || document.mcpSpyBaseline === undefined || !isObject(document.servers))
    throw new BaselineError(`${path} is not an mcp-spy baseline (write one with mcp-spy baseline wire.jsonl -o ${path})`);
  if (document.mcpSpyBaseline !== baselineVersion) throw new BaselineError(formatProblem(path, document.mcpSpyBaseline));
  // Hashing a definition walks it: one nested past what any reader walks is refused, not cut (its hash would lie).
  if (nestsDeeper(document.servers, maxDepth))
    throw new BaselineError(`${path}: a tool definition nests deeper than ${maxDepth} levels; write the baseline again with mcp-spy baseline`);
  const servers = tableOf<Record<string, PinnedTool>>([]);
  for (const [server, entry] of Object.entries(document.servers)) {
    const tools = isObject(entry) && isObject(entry.tools) ? entry.tools : undefined;
    if (!tools) throw new BaselineError(`${path}: server ${JSON.stringify(server)}: expected {"tools": {...}}`);
    servers[server] = tableOf(
      Object.entries(tools).map(
        ([name, value]) => [name, pinnedTool(`${path}: server ${JSON.stringify(server)}, tool ${JSON.stringify(name)}`, value)] as const,
      ),
    );
  }
  return servers;
}
