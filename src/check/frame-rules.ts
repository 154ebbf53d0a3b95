import { noteTexts, type NoteId } from '../protocol/notes.js';
import { c2s, handshake, lines, meta2026, ping, recordLine, s2c } from './examples.js';
import { cutMarker } from '../protocol/depth.js';
import type { EntryContext, RuleDefinition, RuleFamily } from './types.js';

type NoteRule = Omit<RuleDefinition, 'summary'> & { id: NoteId };

/** A 2026-07-28 call that needs the user's confirmation: `input_required`, then the retry echoing `requestState`. */
function roundTrip(echoed: string): string {
  const params = { name: 'deploy', arguments: { env: 'prod' }, _meta: meta2026 };
  const confirm = {
    method: 'elicitation/create',
    params: { message: 'Deploy to prod?', requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean' } } } },
  };
  return lines(
    c2s({ id: 1, method: 'tools/call', params }),
    s2c({ id: 1, result: { resultType: 'input_required', inputRequests: { confirm }, requestState: 'deploy:prod' } }),
    c2s({
      id: 2,
      method: 'tools/call',
      params: { ...params, inputResponses: { confirm: { action: 'accept', content: { confirm: true } } }, requestState: echoed },
    }),
    s2c({ id: 2, result: { content: [{ type: 'text', text: 'deployed to prod' }] } }),
  );
}

// Facts the pipeline notes on each frame as it is recorded: `check` reports them under the same ids.
const noteRules: NoteRule[] = [
  { id: 'not-json', severity: 'error', bad: c2s({ id: 1, method: 'ping' }).slice(0, -1), good: lines(ping(1)) },
  {
    id: 'not-utf8',
    severity: 'error',
    bad: recordLine(1, { dir: 'c2s', kind: 'invalid', bytes: 4, notes: ['not-utf8'], rawBase64: '/////w==' }),
    good: recordLine(1, { dir: 'c2s', kind: 'notification', bytes: 54, method: 'notifications/initialized' }, { method: 'notifications/initialized' }),
  },
  { id: 'not-jsonrpc', severity: 'error', bad: '-> {"id":1,"method":"ping"}', good: lines(ping(1)) },
  {
    id: 'stdout-noise',
    severity: 'error',
    bad: lines(c2s({ id: 1, method: 'ping' }), '<- Server listening on stdio', s2c({ id: 1, result: {} })),
    good: lines(ping(1)),
  },
  { id: 'invalid-id', severity: 'error', bad: c2s({ id: { n: 1 }, method: 'ping' }), good: lines(ping(1)) },
  { id: 'id-null', severity: 'error', bad: lines(c2s({ id: null, method: 'ping' }), s2c({ id: null, result: {} })), good: lines(ping(1)) },
  { id: 'duplicate-id', severity: 'error', bad: lines(ping(1), ping(1)), good: lines(ping(1), ping(2)) },
  {
    id: 'result-and-error',
    severity: 'error',
    bad: lines(c2s({ id: 1, method: 'ping' }), s2c({ id: 1, result: {}, error: { code: -32603, message: 'Internal error' } })),
    good: lines(ping(1)),
  },
  {
    id: 'error-without-id',
    severity: 'warn',
    bad: lines(c2s({ id: 1, method: 'tools/list' }), s2c({ id: null, error: { code: -32001, message: 'Session not found' } })),
    good: lines(
      c2s({ id: 1, method: 'tools/list' }),
      s2c({ id: 1, error: { code: -32001, message: 'Session not found' } }),
      '<- {"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}',
    ),
  },
  {
    id: 'bad-error-object',
    severity: 'error',
    bad: lines(c2s({ id: 1, method: 'ping' }), s2c({ id: 1, error: { code: 'failed' } })),
    good: lines(c2s({ id: 1, method: 'ping' }), s2c({ id: 1, error: { code: -32603, message: 'Internal error' } })),
  },
  { id: 'orphan-response', severity: 'error', bad: s2c({ id: 7, result: {} }), good: lines(ping(7)) },
  {
    id: 'batch-forbidden',
    severity: 'error',
    bad: lines(
      handshake('2025-06-18'),
      `-> [${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' })},${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' })}]`,
    ),
    good: lines(
      handshake('2025-03-26'),
      `-> [${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' })},${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' })}]`,
      s2c({ id: 1, result: {} }),
      s2c({ id: 2, result: {} }),
    ),
  },
  {
    id: 'frame-too-large',
    severity: 'warn',
    bad: recordLine(1, {
      dir: 's2c',
      kind: 'invalid',
      bytes: 20971520,
      truncated: true,
      notes: ['frame-too-large'],
      raw: '{"jsonrpc":"2.0","id":1,"result":{"contents":[{"blob":"iVBOR',
    }),
    good: recordLine(
      1,
      { dir: 's2c', kind: 'notification', bytes: 67, method: 'notifications/tools/list_changed' },
      { method: 'notifications/tools/list_changed' },
    ),
  },
  {
    id: 'nested-too-deep',
    severity: 'warn',
    bad: recordLine(
      1,
      { dir: 'c2s', kind: 'request', method: 'tools/call', id: 1, tool: 'store', bytes: 50063, notes: ['nested-too-deep'] },
      { id: 1, method: 'tools/call', params: { name: 'store', arguments: { tree: { child: { child: cutMarker } } } } },
    ),
    good: lines(c2s({ id: 1, method: 'tools/call', params: { name: 'store', arguments: { tree: { child: {} } } } }), s2c({ id: 1, result: { content: [] } })),
  },
  {
    id: 'unknown-progress-token',
    severity: 'warn',
    bad: s2c({ method: 'notifications/progress', params: { progressToken: 'p9', progress: 1 } }),
    good: lines(
      c2s({ id: 1, method: 'tools/call', params: { name: 'index', arguments: {}, _meta: { progressToken: 'p1' } } }),
      s2c({ method: 'notifications/progress', params: { progressToken: 'p1', progress: 1, total: 2 } }),
      s2c({ id: 1, result: { content: [{ type: 'text', text: 'done' }] } }),
    ),
  },
  {
    id: 'cancel-unknown-request',
    severity: 'warn',
    bad: c2s({ method: 'notifications/cancelled', params: { requestId: 5, reason: 'user gave up' } }),
    good: lines(
      c2s({ id: 5, method: 'tools/call', params: { name: 'index', arguments: {} } }),
      c2s({ method: 'notifications/cancelled', params: { requestId: 5, reason: 'user gave up' } }),
    ),
  },
  {
    id: 'request-state-mismatch',
    severity: 'error',
    bad: roundTrip('forged'),
    good: roundTrip('deploy:prod'),
  },
];

/** Notes whose fact is already said by a more telling note on the same frame. */
const impliedBy: Partial<Record<NoteId, NoteId[]>> = {
  'not-json': ['stdout-noise'],
  'not-jsonrpc': ['stdout-noise'],
  'not-utf8': ['stdout-noise'],
  // A malformed answer on stdout is noise too, but what is wrong with it says more.
  'stdout-noise': ['result-and-error', 'bad-error-object', 'invalid-id', 'batch-forbidden'],
};

const byId = new Map(noteRules.map((rule) => [rule.id as string, rule]));

/** Notes the live spy could not know to be wrong, which the whole recording shows were not. */
const excused: Partial<Record<NoteId, (context: EntryContext) => boolean>> = {
  // Stateless HTTP: the request went in another POST, recorded as its own session; it is cancelled now.
  'cancel-unknown-request': ({ entry, state }) => state.answers.cancelledElsewhere(entry.seq),
};

/** The rules of single frames, as noted live by the pipeline (and by the capture importer). */
export const frameRules: RuleFamily = {
  rules: noteRules.map((rule) => ({ ...rule, summary: noteTexts[rule.id] })),
  frame(context) {
    const { entry, report } = context;
    const notes = Array.isArray(entry.notes) ? (entry.notes as NoteId[]) : [];
    for (const note of notes) {
      if (!byId.has(note) || excused[note]?.(context)) continue;
      if (impliedBy[note]?.some((stronger) => notes.includes(stronger))) continue;
      const subject = [entry.method, entry.id !== undefined ? `#${JSON.stringify(entry.id)}` : undefined].filter(Boolean).join(' ');
      report(note, `${noteTexts[note]}${subject ? ` (${subject})` : ''}`);
    }
  },
};
