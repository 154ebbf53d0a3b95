import { isObject, pick } from '../protocol/jsonrpc.js';
import { isStatelessRevision, metaKeys } from '../protocol/revisions.js';
import { c2s, lines, meta2026, s2c } from './examples.js';
import type { RuleFamily } from './types.js';

const { [metaKeys.clientInfo]: _clientInfo, ...withoutClientInfo } = meta2026;
const { [metaKeys.clientCapabilities]: _capabilities, ...withoutCapabilities } = meta2026;
const listTools = (meta: object) =>
  lines(c2s({ id: 1, method: 'tools/list', params: { _meta: meta } }), s2c({ id: 1, result: { tools: [], resultType: 'complete' } }));

/** 2026-07-28 has no handshake: every request carries the session's facts in `_meta`. */
export const metaRules: RuleFamily = {
  rules: [
    {
      id: 'meta-missing',
      severity: 'error',
      summary: `a 2026-07-28 request without the _meta keys ${metaKeys.protocolVersion} and ${metaKeys.clientCapabilities}`,
      bad: listTools(withoutCapabilities),
      good: listTools(meta2026),
    },
    {
      id: 'meta-client-info-missing',
      severity: 'warn',
      summary: `a 2026-07-28 request without ${metaKeys.clientInfo} in _meta (it should carry it)`,
      bad: listTools(withoutClientInfo),
      good: listTools(meta2026),
    },
  ],
  frame({ entry, message, state, report }) {
    if (entry.kind !== 'request' || entry.dir !== 'c2s' || !isStatelessRevision(state.facts.revision)) return;
    const meta = pick(message, 'params', '_meta');
    const has = (key: string) => isObject(meta) && key in meta;
    const missing = [metaKeys.protocolVersion, metaKeys.clientCapabilities].filter((key) => !has(key));
    if (missing.length > 0) report('meta-missing', `${String(entry.method)} lacks _meta ${missing.join(' and ')}`);
    if (!has(metaKeys.clientInfo)) report('meta-client-info-missing', `${String(entry.method)} lacks _meta ${metaKeys.clientInfo}`);
  },
};
