import { isObject, pick, pickString, type JsonObject } from '../protocol/jsonrpc.js';
import { metaKeys } from '../protocol/revisions.js';
import { isFrameEntry } from './frame-message.js';
import type { FrameEntry, RecordEntry } from './schema.js';

/** Who a peer said it was. */
export interface PeerInfo {
  name?: string;
  version?: string;
}

/** What one session said about itself: revision, peers, capabilities, and its tools. */
export interface SessionFacts {
  session: string;
  revision?: string;
  client?: PeerInfo;
  server?: PeerInfo;
  clientCapabilities?: JsonObject;
  serverCapabilities?: JsonObject;
  /** Tools from tools/list results in this session, by name. */
  tools: Map<string, JsonObject>;
  /** The client's initialize was seen, then its answer, then notifications/initialized. */
  handshake: { initialize: boolean; answered: boolean; initialized: boolean };
}

function peerOf(value: unknown): PeerInfo | undefined {
  if (!isObject(value)) return undefined;
  const info: PeerInfo = {};
  if (typeof value.name === 'string') info.name = value.name;
  if (typeof value.version === 'string') info.version = value.version;
  return info;
}

export function newSessionFacts(session: string): SessionFacts {
  return { session, tools: new Map(), handshake: { initialize: false, answered: false, initialized: false } };
}

/** Methods whose frames tell something about the session. */
const telling = new Set(['initialize', 'server/discover', 'tools/list', 'notifications/initialized']);

/** Whether a message carries `_meta` of the protocol's own (`io.modelcontextprotocol/...`), as 2026-07-28 requests do. */
function hasMcpMeta(message: unknown): boolean {
  const meta = pick(pick(message, 'params') ?? pick(message, 'result'), '_meta');
  return isObject(meta) && Object.keys(meta).some((key) => key.startsWith('io.modelcontextprotocol/'));
}

/** Whether an entry may add to the facts (so a reader parses only the frames that matter). */
export function mayTell(entry: RecordEntry, facts: SessionFacts): boolean {
  if (!isFrameEntry(entry)) return false;
  if (typeof entry.method === 'string' && telling.has(entry.method)) return true;
  return (!facts.client || !facts.server) && hasMcpMeta(entry.msg);
}

/** Adds what one frame says to its session's facts. Total: a frame of the wrong shape adds nothing. */
export function learnFromFrame(facts: SessionFacts, entry: FrameEntry, message: unknown): void {
  if (typeof entry.rev === 'string') facts.revision = entry.rev;
  const params = pick(message, 'params');
  const result = pick(message, 'result');
  const meta = pick(params, '_meta');
  if (entry.dir === 'c2s' && entry.kind === 'request') {
    if (isObject(meta)) {
      facts.client = peerOf(meta[metaKeys.clientInfo]) ?? facts.client;
      if (isObject(meta[metaKeys.clientCapabilities])) facts.clientCapabilities = meta[metaKeys.clientCapabilities] as JsonObject;
    }
    if (entry.method === 'initialize') {
      facts.handshake.initialize = true;
      facts.client = peerOf(pick(params, 'clientInfo')) ?? facts.client;
      const capabilities = pick(params, 'capabilities');
      if (isObject(capabilities)) facts.clientCapabilities = capabilities;
    }
  }
  if (entry.dir === 'c2s' && entry.method === 'notifications/initialized') facts.handshake.initialized = true;
  // A tool error is a result too, and in 2026 it names the server in its _meta like any other.
  if (entry.dir === 's2c' && (entry.kind === 'response' || entry.kind === 'tool-error') && isObject(result)) {
    facts.server = peerOf(pick(result, '_meta', metaKeys.serverInfo)) ?? facts.server;
    if (entry.method === 'initialize' || entry.method === 'server/discover') {
      if (entry.method === 'initialize') facts.handshake.answered = true;
      facts.server = peerOf(result.serverInfo) ?? facts.server;
      if (isObject(result.capabilities)) facts.serverCapabilities = result.capabilities;
      const revision = pickString(result, 'protocolVersion');
      if (revision) facts.revision = revision;
    }
    if (entry.method === 'tools/list' && Array.isArray(result.tools)) {
      for (const tool of result.tools) if (isObject(tool) && typeof tool.name === 'string') facts.tools.set(tool.name, tool);
    }
  }
}
