import { isObject, type JsonObject } from '../protocol/jsonrpc.js';
import { learnFromFrame, newSessionFacts, type PeerInfo } from '../record/session-facts.js';
import { buildExchanges, type RecordedExchange } from '../recording/exchanges.js';
import type { Recording } from '../recording/load.js';
import { unnamedServer } from '../wire/correlate/tool-pin.js';

/** What a recording says of its server: who, which revision, what it offers, and how it answered. */
export interface Snapshot {
  server?: PeerInfo;
  client?: PeerInfo;
  revision?: string;
  serverCapabilities?: JsonObject;
  clientCapabilities?: JsonObject;
  /** The names of the servers that listed something, in the order first seen. */
  servers: Set<string>;
  /** Each inventory by `inventoryKey(server, name)`: a recording of several servers keeps each one's own. */
  tools: Map<string, JsonObject>;
  prompts: Map<string, JsonObject>;
  /** Resources by URI and templates by `template <uriTemplate>`. */
  resources: Map<string, JsonObject>;
  /** The client's requests with their answers, in recorded order. */
  exchanges: RecordedExchange[];
}

/** Where each inventory is listed, and the key of one item. */
const listings: Record<string, { field: string; into: 'tools' | 'prompts' | 'resources'; keyOf: (item: JsonObject) => unknown }> = {
  'tools/list': { field: 'tools', into: 'tools', keyOf: (item) => item.name },
  'prompts/list': { field: 'prompts', into: 'prompts', keyOf: (item) => item.name },
  'resources/list': { field: 'resources', into: 'resources', keyOf: (item) => item.uri },
  'resources/templates/list': {
    field: 'resourceTemplates',
    into: 'resources',
    keyOf: (item) => (typeof item.uriTemplate === 'string' ? `template ${item.uriTemplate}` : undefined),
  },
};

/** The key of an item of a server's inventory: the server, then the item's own key. */
export const inventoryKey = (server: string, key: string) => JSON.stringify([server, key]);

/** The last word of every session in a recording: a later tools/list replaces an item the same server listed earlier. */
export function snapshotOf(recording: Recording): Snapshot {
  const snapshot: Snapshot = { servers: new Set(), tools: new Map(), prompts: new Map(), resources: new Map(), exchanges: [] };
  for (const session of recording.sessions) {
    const facts = newSessionFacts(session.id);
    const listed: [into: 'tools' | 'prompts' | 'resources', key: string, item: JsonObject][] = [];
    for (const frame of session.frames) {
      learnFromFrame(facts, frame.entry, frame.message);
      const listing =
        frame.dir === 's2c' && frame.kind === 'response' && typeof frame.method === 'string' && Object.hasOwn(listings, frame.method)
          ? listings[frame.method]
          : undefined;
      const items = listing && isObject(frame.message.result) ? frame.message.result[listing.field] : undefined;
      if (!listing || !Array.isArray(items)) continue;
      for (const item of items.filter(isObject)) {
        const key = listing.keyOf(item);
        if (typeof key === 'string') listed.push([listing.into, key, item]);
      }
    }
    const server = facts.server?.name ?? unnamedServer;
    if (listed.length > 0) snapshot.servers.add(server);
    for (const [into, key, item] of listed) snapshot[into].set(inventoryKey(server, key), item);
    snapshot.server = facts.server ?? snapshot.server;
    snapshot.client = facts.client ?? snapshot.client;
    snapshot.revision = facts.revision ?? snapshot.revision;
    snapshot.serverCapabilities = facts.serverCapabilities ?? snapshot.serverCapabilities;
    snapshot.clientCapabilities = facts.clientCapabilities ?? snapshot.clientCapabilities;
    if (!session.probe) snapshot.exchanges.push(...buildExchanges(session).client.filter((exchange) => exchange.request.kind === 'request'));
  }
  return snapshot;
}
