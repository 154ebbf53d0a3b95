import { methodsByRevision } from './methods.js';

/** Protocol revisions the spy knows, oldest first. */
export const revisions = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28'] as const;

export type Revision = (typeof revisions)[number];

export function isKnownRevision(value: unknown): value is Revision {
  return typeof value === 'string' && (revisions as readonly string[]).includes(value);
}

/** JSON-RPC batches: only 2025-03-26 puts them in the protocol. */
export function revisionAllowsBatch(revision: string | undefined): boolean {
  return revision === undefined || revision === '2025-03-26';
}

/** The 2026-07-28 revision drops the handshake and carries its facts in `_meta` on every request. */
export function isStatelessRevision(revision: string | undefined): boolean {
  return revision !== undefined && revision >= '2026-07-28';
}

export const metaKeys = {
  protocolVersion: 'io.modelcontextprotocol/protocolVersion',
  clientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
  clientInfo: 'io.modelcontextprotocol/clientInfo',
  serverInfo: 'io.modelcontextprotocol/serverInfo',
  /** On a notification delivered on a `subscriptions/listen` stream: the id of that listen request. */
  subscriptionId: 'io.modelcontextprotocol/subscriptionId',
} as const;

export type MethodFamily = keyof (typeof methodsByRevision)[Revision];

/**
 * Methods of the official extensions a revision's core schema does not list: the tasks extension
 * (`io.modelcontextprotocol/tasks`, SEP-2663) moved tasks out of the 2026-07-28 core. Its client
 * polls, answers a task's input requests and cancels it; its server pushes `notifications/tasks`
 * on a `subscriptions/listen` stream.
 */
const extensionMethods: Partial<Record<Revision, Partial<Record<MethodFamily, readonly string[]>>>> = {
  '2026-07-28': { clientRequests: ['tasks/get', 'tasks/update', 'tasks/cancel'], serverNotifications: ['notifications/tasks'] },
};

/** The methods of one family a revision defines, its official extensions' included. */
export function methodsOf(revision: Revision, family: MethodFamily): readonly string[] {
  const extra = extensionMethods[revision]?.[family];
  return extra ? [...methodsByRevision[revision][family], ...extra] : methodsByRevision[revision][family];
}
