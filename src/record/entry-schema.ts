import { z } from 'zod';
import { frameKinds } from '../wire/classify/kinds.js';

// The record as a contract: every entry kind and its fields, in one definition. The TypeScript
// types of the record (schema.ts) are inferred from it, docs/record.schema.json is generated from it
// (`npm run docs:schema`), and the end-to-end tests validate every record they read against it.
// Only tests and that script load this module at run time; the spy itself imports its types alone.

const jsonRpcId = z.union([z.string(), z.number(), z.null()]);
const count = z.number().int().nonnegative();

/** What every entry has: the record version, its place, its time, and the session it belongs to. */
const envelope = {
  v: z.literal(2).describe('record format version'),
  seq: count.describe('1, 2, 3 ... in the order the spy saw things; several spies appending to one file each count their own'),
  t: z.string().optional().describe('when, ISO 8601 UTC with milliseconds (absent in an imported plain capture, which has no times)'),
  session: z.string().optional().describe('the MCP session: one per stdio spy run; on HTTP the Mcp-Session-Id, or the exchange for stateless ones'),
};

/** Rule ids broken (see docs/rules.md). */
const notes = z.array(z.string()).describe('rule ids the entry breaks, e.g. ["orphan-response"]');

/** The bytes of a line (a frame, a stderr line) that the record keeps as text or base64. */
const lineBytes = {
  bytes: count.describe('size in bytes as on the wire, without the line ending'),
  eol: z.enum(['\r\n', '']).optional().describe('the line ending when it was not a plain LF: CRLF, or "" for a last line without one'),
  truncated: z.literal(true).optional().describe('only the first --max-frame bytes were kept'),
  raw: z.string().optional().describe('the exact text, when it is UTF-8 but not JSON (or holds a line break; then msg is re-serialized)'),
  rawBase64: z.string().optional().describe('the exact bytes, base64, when they are not UTF-8'),
  redacted: z.array(z.string()).optional().describe('JSONPaths of the values masked before writing (--redact, known secrets)'),
};

const related = z
  .strictObject({ seq: count, id: jsonRpcId, method: z.string(), tool: z.string().optional(), round: count.optional() })
  .describe(
    "for a response: its request; for progress or cancellation: the request it is about; for the retry of a 2026-07-28 multi-round-trip call: the call's first request, with `round` (2, 3, ...), which the answer to the retry carries too",
  );

/** HTTP facts a frame may carry. */
const httpHeaders = z.record(z.string(), z.union([z.string(), z.array(z.string())])).describe('HTTP headers, secrets masked');

export const frameEntry = z
  .strictObject({
    ...envelope,
    dir: z.enum(['c2s', 's2c']).describe('c2s: client to server; s2c: server to client'),
    kind: z.enum(frameKinds),
    method: z.string().optional().describe("the method; on a response, its request's"),
    id: jsonRpcId.optional(),
    tool: z.string().optional(),
    prompt: z.string().optional(),
    uri: z.string().optional(),
    latencyMs: z.number().nonnegative().optional().describe('on a response: time since its request was seen'),
    error: z.strictObject({ code: z.unknown(), message: z.unknown(), data: z.unknown().optional() }).optional().describe('on a protocol error, as sent'),
    errorName: z.string().optional().describe("the error code's name"),
    rev: z.string().optional().describe('the protocol revision in force'),
    revChanged: z.literal(true).optional().describe('the first frame of a new revision in this session'),
    related: related.optional(),
    batch: z.strictObject({ index: count, count: count }).optional().describe('a member of a JSON-RPC batch; the first member carries the whole batch as msg'),
    notes: notes.optional(),
    unread: z.array(z.string()).optional().describe('on a truncated frame: the envelope members its kept part did not hold'),
    headers: httpHeaders.optional(),
    sse: z
      .strictObject({ id: z.string().optional(), event: z.string().optional(), retry: z.number().optional() })
      .optional()
      .describe('the SSE event that carried the frame'),
    origin: z
      .literal('spy')
      .optional()
      .describe('the spy wrote or changed this frame itself: an answer when the target could not be reached, or one a fault rule made or spoiled'),
    fault: z.string().optional().describe('the fault rule (--fault) that acted on this frame, as written'),
    original: z
      .string()
      .optional()
      .describe('on a frame a fault rule spoiled or the intercept console edited: the frame as its sender wrote it, beside what was delivered'),
    intercept: z.string().optional().describe('the --intercept filter that held this frame, as written (its intercept events say what became of it)'),
    exchange: count
      .optional()
      .describe('HTTP: the exchange that carried the frame, numbered in the order the spy saw them in its run; its http events carry the same'),
    ...lineBytes,
    msg: z.unknown().optional().describe('the frame when it is JSON: its exact bytes spliced in unescaped, last on the line'),
  })
  .describe('a frame: one JSON-RPC message as it crossed the wire');

export const spawnEntry = z.strictObject({
  ...envelope,
  kind: z.literal('spawn'),
  transport: z.enum(['stdio', 'http']),
  command: z.array(z.string()).optional().describe('the server command line'),
  pid: z.number().int().optional(),
  cwd: z.string().optional(),
  spy: z.string().optional().describe("the spy's version"),
  reason: z.string().optional().describe('why the server did not start'),
  client: z.string().optional().describe("the client whose config started the spy (wrap's --client), e.g. claude-code"),
  name: z.string().optional().describe("the server's entry name in that config (wrap's --name)"),
});

export const exitEntry = z.strictObject({
  ...envelope,
  kind: z.literal('exit'),
  code: z.number().int().nullable().describe("the server's exit code"),
  signal: z.string().nullable().describe('the signal that ended it'),
  reason: z.string().optional(),
});

export const stderrEntry = z.strictObject({ ...envelope, kind: z.literal('stderr'), ...lineBytes }).describe("a line of the server's stderr");

export const gapEntry = z
  .strictObject({
    ...envelope,
    kind: z.literal('gap'),
    reason: z.string(),
    lost: count.optional().describe('bytes (or entries) forwarded but not recorded'),
    unit: z.literal('entries').optional().describe('lost counts entries a file did not take (absent: lost counts bytes)'),
    stream: z.enum(['c2s', 's2c', 'stderr']).optional(),
    x: z.number().optional(),
    httpMethod: z.string().optional(),
    path: z.string().optional(),
  })
  .describe('what the spy could not record, and why');

export const unansweredEntry = z.strictObject({
  ...envelope,
  kind: z.literal('unanswered'),
  requests: z.array(z.strictObject({ seq: count, dir: z.enum(['c2s', 's2c']), id: jsonRpcId, method: z.string(), tool: z.string().optional() })),
  notes: notes.optional(),
});

export const httpEntry = z
  .strictObject({
    ...envelope,
    kind: z.literal('http'),
    httpMethod: z.string().optional(),
    path: z.string().optional(),
    status: z.number().int().optional(),
    reason: z.string().optional(),
    headers: z
      .strictObject({ request: httpHeaders, response: httpHeaders.optional() })
      .optional()
      .describe('the headers of the request and its response, secrets masked'),
    summary: z.string().optional().describe('the exchange in words'),
    body: z.string().optional().describe('the start of a body that is not a frame, secrets masked'),
    requestBody: z.string().optional(),
    contentType: z.string().optional(),
    challenge: z.record(z.string(), z.string()).optional().describe('an auth challenge (WWW-Authenticate): scheme and parameters'),
    requests: z
      .array(z.strictObject({ seq: count, dir: z.literal('c2s'), id: jsonRpcId, method: z.string() }))
      .optional()
      .describe('the requests an auth challenge or an error status (a 404 to a session that is gone) refused: answered by the status, not owed another'),
    rewrites: z
      .array(z.strictObject({ at: z.string(), from: z.string(), to: z.string() }))
      .optional()
      .describe("where the spy put its own URL for the target's"),
    endpoint: z.string().optional(),
    endpointRewritten: z.string().optional(),
    sse: z.strictObject({ id: z.string().optional(), event: z.string().optional(), retry: z.number().optional() }).optional(),
    notes: notes.optional(),
    transport: z.literal('http').optional().describe('on the first http event of a run: the spy started'),
    exchange: count.optional().describe('the exchange, as its frames name it'),
    listen: z.string().optional().describe("the spy's own URL"),
    target: z.string().optional().describe('the URL it forwards to'),
    spy: z.string().optional().describe("the spy's version"),
    client: z.string().optional().describe('on the start entry: the client whose config points at this spy (--client), e.g. cursor'),
    name: z.string().optional().describe("on the start entry: the server's entry name in that config (--name)"),
  })
  .describe('an HTTP exchange, when it says something the frames do not; or the spy starting to listen');

export const noteEntry = z.strictObject({
  ...envelope,
  kind: z.literal('note'),
  notes,
  text: z.string(),
  related: related.optional(),
  lost: count.optional().describe('spans-dropped: how many'),
  reason: z.string().optional().describe('spans-dropped: what the collector said'),
});

export const faultEntry = z
  .strictObject({
    ...envelope,
    kind: z.literal('fault'),
    rule: z.string().describe('the fault rule, as written (--fault, --faults)'),
    action: z.string().describe('its action: delay, error, tool-error, drop, timeout, corrupt, disconnect, noise, status, expire-session'),
    stream: z.enum(['c2s', 's2c']).optional().describe('the direction of the frame it acted on (named so, not dir: it is no frame)'),
    method: z.string().optional(),
    id: jsonRpcId.optional(),
    tool: z.string().optional(),
    exchange: count.optional().describe('HTTP: the exchange it acted on'),
    text: z.string().describe('what the spy did, in words'),
  })
  .describe("a fault the spy injected on purpose: not the server's doing");

export const interceptEntry = z
  .strictObject({
    ...envelope,
    kind: z.literal('intercept'),
    filter: z.string().describe('the --intercept filter, as written'),
    action: z
      .enum(['hold', 'forward', 'edit', 'drop', 'error'])
      .describe('hold: a frame was held; then what became of it: passed on as it was, edited then passed on, dropped, or answered with an error'),
    hold: count.describe("the hold's number in this run: a hold and its release carry the same"),
    by: z
      .enum(['console', 'bound', 'end'])
      .optional()
      .describe(
        'on a release: the console (mcp-spy ui or another client of the control socket), the bound (--hold-timeout or --max-held passed), or the session ending',
      ),
    heldMs: z.number().nonnegative().optional().describe('on a release: how long the frame was held'),
    stream: z.enum(['c2s', 's2c']).optional().describe('the direction of the frame (named so, not dir: it is no frame)'),
    method: z.string().optional(),
    id: jsonRpcId.optional(),
    tool: z.string().optional(),
    exchange: count.optional().describe('HTTP: the exchange the frame came in'),
    text: z.string().describe('what happened, in words'),
  })
  .describe('a frame held by --intercept, or released: who released it, how, after how long');

/**
 * A frame the spy captured but did not analyse (its analysis had fallen behind the traffic): only
 * what is cheap to know at the wire, its direction, time, size and bytes. Readers analyse it as they
 * read it, with the pipeline the spy would have run, so they never see this kind (see reader.ts).
 */
export const capturedEntry = z
  .strictObject({
    ...envelope,
    kind: z.literal('captured'),
    dir: z.enum(['c2s', 's2c']).describe('c2s: client to server; s2c: server to client'),
    bytes: lineBytes.bytes,
    eol: lineBytes.eol,
    truncated: lineBytes.truncated,
    raw: z.string().optional().describe('the exact text, when it is UTF-8 but not spliced as msg'),
    rawBase64: lineBytes.rawBase64,
    redacted: lineBytes.redacted,
    frames: count
      .optional()
      .describe(
        'a span of whole lines captured at once: how many frames (lines not empty) it holds, numbered seq to seq + frames - 1; raw or rawBase64 then holds their exact bytes, each line with its ending, and bytes counts them all',
      ),
    closed: z
      .literal(true)
      .optional()
      .describe('no frame (bytes 0): the client closed its input here; readers then say which server requests it left unanswered'),
    msg: z
      .unknown()
      .optional()
      .describe("the frame's exact bytes spliced in unescaped, last on the line, when they are JSON (masked and re-serialized where redacted)"),
  })
  .describe('a frame captured but not yet analysed (stdio): readers classify and annotate it as they read it');

/** The kinds of entry readers see. */
const entryKinds = [frameEntry, spawnEntry, exitEntry, stderrEntry, gapEntry, unansweredEntry, httpEntry, noteEntry, faultEntry, interceptEntry] as const;

/** One entry as readers see it: a frame or an event, told apart by `kind`. */
export const recordEntry = z.discriminatedUnion('kind', [...entryKinds]);

/** One line of the file: an entry, or a frame captured and left for readers to analyse. */
export const recordLine = z.discriminatedUnion('kind', [...entryKinds, capturedEntry]);

/** The JSON Schema (2020-12) of a record line, as published in docs/record.schema.json. */
export function recordJsonSchema(): object {
  const schema = z.toJSONSchema(recordLine, { target: 'draft-2020-12', unrepresentable: 'any' }) as Record<string, unknown>;
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    title: 'mcp-spy record entry (wire.jsonl, version 2)',
    description:
      'One line of an mcp-spy record: a frame (kind request, notification, response, tool-error, protocol-error, invalid) or an event (spawn, exit, stderr, gap, unanswered, http, note, fault, intercept), or a frame captured but not yet analysed (captured).',
    ...Object.fromEntries(Object.entries(schema).filter(([key]) => key !== '$schema')),
  };
}
