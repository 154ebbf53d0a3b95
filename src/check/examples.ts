import { metaKeys } from '../protocol/revisions.js';
import { RECORD_VERSION } from '../record/schema.js';

// Builders for the recordings in the rule table: short, real capture lines, so docs/rules.md shows
// exactly what the tests check.

export const c2s = (message: object) => `-> ${JSON.stringify({ jsonrpc: '2.0', ...message })}`;
export const s2c = (message: object) => `<- ${JSON.stringify({ jsonrpc: '2.0', ...message })}`;

export const lines = (...parts: (string | string[])[]) => parts.flat().join('\n');

/** The three frames that open a session before 2026: initialize, its answer, initialized. */
export function handshake(revision: string, serverCapabilities: object = {}, clientCapabilities: object = {}): string[] {
  return [
    c2s({
      id: 0,
      method: 'initialize',
      params: { protocolVersion: revision, capabilities: clientCapabilities, clientInfo: { name: 'client', version: '1.0.0' } },
    }),
    s2c({ id: 0, result: { protocolVersion: revision, capabilities: serverCapabilities, serverInfo: { name: 'server', version: '1.0.0' } } }),
    c2s({ method: 'notifications/initialized' }),
  ];
}

/** The `_meta` every 2026-07-28 request carries. */
export const meta2026 = {
  [metaKeys.protocolVersion]: '2026-07-28',
  [metaKeys.clientCapabilities]: {},
  [metaKeys.clientInfo]: { name: 'client', version: '1.0.0' },
};

export const ping = (id: number) => [c2s({ id, method: 'ping' }), s2c({ id, result: {} })];

/** A record line (for what a capture cannot hold: HTTP headers, events, bytes that are not UTF-8). */
export function recordLine(seq: number, fields: object, message?: object): string {
  const entry: Record<string, unknown> = { v: RECORD_VERSION, seq, t: `2026-07-28T10:00:0${seq}.000Z`, session: 's1', ...fields };
  if (message) entry.msg = { jsonrpc: '2.0', ...message };
  return JSON.stringify(entry);
}
