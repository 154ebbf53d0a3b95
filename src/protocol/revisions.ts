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
} as const;

export type MethodFamily = keyof (typeof methodsByRevision)[Revision];

export function methodsOf(revision: Revision, family: MethodFamily): readonly string[] {
  return methodsByRevision[revision][family];
}
