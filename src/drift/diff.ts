import diff from 'microdiff';
import { isObject, type JsonObject } from '../protocol/jsonrpc.js';
import { canonicalJson } from '../protocol/canonical-json.js';
import { withoutPrototypes } from '../protocol/own-table.js';
import { diffMessages } from '../recording/compare.js';
import type { RecordedExchange } from '../recording/exchanges.js';
import { describeDiff, formatPath } from '../recording/compare.js';
import { createMatcher } from '../recording/matcher.js';
import { change, changeClasses, type Change } from './change.js';
import { inventoryChanges } from './inventory-changes.js';
import type { Snapshot } from './snapshot.js';

type Inventory = 'tools' | 'prompts' | 'resources';

/**
 * An inventory keyed as the report names it: by item alone when each recording holds one server (a
 * server renamed is still the same server), by item and server when one holds several.
 */
function inventoryOf(snapshot: Snapshot, kind: Inventory, byServer: boolean): Map<string, JsonObject> {
  return new Map(
    [...snapshot[kind]].map(([composite, item]) => {
      const [server, key] = JSON.parse(composite) as [string, string];
      return [byServer ? `${key} (server ${server})` : key, item];
    }),
  );
}

/** What `diff` found between the recording before and the one after. */
export interface DiffReport {
  before: string;
  after: string;
  changes: Change[];
  /** Answers compared: requests of the later recording matched with one of the earlier. */
  compared: number;
  /** Requests of the later recording with no match in the earlier (not compared). */
  unmatched: number;
}

/** Requests whose answers are already judged as inventories, or that carry no behaviour of the server. */
const notAnswers = new Set(['initialize', 'server/discover', 'ping', 'tools/list', 'prompts/list', 'resources/list', 'resources/templates/list']);

const same = (a: unknown, b: unknown) => canonicalJson(a) === canonicalJson(b);

/** A new version of the same peer is compatible; another server altogether (another name) is not known to be. */
function peerChanges(area: 'server' | 'client', before: Snapshot['server'], after: Snapshot['server']): Change[] {
  if (!before || !after || same(before, after)) return [];
  const name = after.name ?? before.name ?? '?';
  const shown = (info: NonNullable<Snapshot['server']>) => `${info.name ?? '?'} ${info.version ?? ''}`.trim();
  if (area === 'server' && before.name !== after.name)
    return [change('risky', area, name, `another ${area}: ${shown(before)} -> ${shown(after)}`, { before, after })];
  return [change('compatible', area, name, `${area} info changed: ${shown(before)} -> ${shown(after)}`, { before, after })];
}

/** A capability dropped breaks a client that used it; one added does not; a flag turned off breaks too. */
function capabilityChanges(before: JsonObject | undefined, after: JsonObject | undefined): Change[] {
  if (!before || !after) return [];
  return diff(withoutPrototypes(before) as JsonObject, withoutPrototypes(after) as JsonObject).map((item) => {
    const path = formatPath(item.path);
    if (item.type === 'REMOVE') return change('breaking', 'capability', path, `capability ${path} dropped`, { before: item.oldValue });
    if (item.type === 'CREATE') return change('compatible', 'capability', path, `capability ${path} added`, { after: item.value });
    const turnedOff = item.oldValue === true && item.value !== true;
    return change(turnedOff ? 'breaking' : 'compatible', 'capability', path, `capability ${path} changed`, { before: item.oldValue, after: item.value });
  });
}

const failed = (exchange: RecordedExchange) => exchange.response?.kind === 'protocol-error' || exchange.response?.kind === 'tool-error';

function subjectOf(exchange: RecordedExchange): string {
  const entry = exchange.request.entry;
  const about = entry.tool ?? entry.prompt ?? entry.uri;
  return `${exchange.request.method ?? '?'}${typeof about === 'string' ? ` ${about}` : ''}`;
}

/** The answers to the same requests (matched as `replay` matches them, after the ignores). */
function answerChanges(before: RecordedExchange[], after: RecordedExchange[], ignores: readonly string[]) {
  const matcher = createMatcher(
    before.filter((exchange) => !notAnswers.has(exchange.request.method ?? '')),
    { ignores, reuse: false },
  );
  const changes: Change[] = [];
  let compared = 0;
  let unmatched = 0;
  for (const exchange of after) {
    const method = exchange.request.method ?? '';
    if (notAnswers.has(method) || !exchange.response) continue;
    const found = matcher.match(method, isObject(exchange.request.message) ? exchange.request.message.params : undefined);
    if (!found.ok || !found.exchange.response) {
      unmatched++;
      continue;
    }
    compared++;
    const differences = diffMessages(found.exchange.response.message, exchange.response.message, ignores);
    if (differences.length === 0) continue;
    const subject = subjectOf(exchange);
    // The values too, short: a path alone sends the reader to the recordings to learn what changed.
    const what =
      differences
        .slice(0, 3)
        .map((item) => describeDiff(item, 60))
        .join('; ') + (differences.length > 3 ? `; +${differences.length - 3} more` : '');
    const values = { before: found.exchange.response.message, after: exchange.response.message };
    if (!failed(found.exchange) && failed(exchange)) changes.push(change('breaking', 'answer', subject, `now fails (${exchange.response.kind})`, values));
    else if (failed(found.exchange) && !failed(exchange)) changes.push(change('compatible', 'answer', subject, 'now succeeds', values));
    else changes.push(change('risky', 'answer', subject, `answer changed: ${what}`, values));
  }
  return { changes, compared, unmatched };
}

/** Compares two recordings of a server: who it is, what it offers, and how it answers. */
export function diffSnapshots(before: Snapshot, after: Snapshot, names: { before: string; after: string }, ignores: readonly string[]): DiffReport {
  const changes: Change[] = [...peerChanges('server', before.server, after.server), ...peerChanges('client', before.client, after.client)];
  if (before.revision && after.revision && before.revision !== after.revision) {
    changes.push(
      change('risky', 'revision', 'protocol', `protocol revision ${before.revision} -> ${after.revision}`, { before: before.revision, after: after.revision }),
    );
  }
  changes.push(...capabilityChanges(before.serverCapabilities, after.serverCapabilities));
  const byServer = before.servers.size > 1 || after.servers.size > 1;
  changes.push(...inventoryChanges('tool', inventoryOf(before, 'tools', byServer), inventoryOf(after, 'tools', byServer)));
  changes.push(...inventoryChanges('prompt', inventoryOf(before, 'prompts', byServer), inventoryOf(after, 'prompts', byServer)));
  changes.push(...inventoryChanges('resource', inventoryOf(before, 'resources', byServer), inventoryOf(after, 'resources', byServer)));
  const answers = answerChanges(before.exchanges, after.exchanges, ignores);
  changes.push(...answers.changes);
  // Worst first, then in the order found: the report reads from what matters most.
  const ranked = changes
    .map((item, at) => ({ item, at }))
    .sort((a, b) => changeClasses.indexOf(a.item.class) - changeClasses.indexOf(b.item.class) || a.at - b.at);
  return { ...names, changes: ranked.map(({ item }) => item), compared: answers.compared, unmatched: answers.unmatched };
}
