import { noteTexts } from '../protocol/notes.js';
import { isKnownRevision, isStatelessRevision, methodsOf, type MethodFamily } from '../protocol/revisions.js';
import { methodsByRevision } from '../protocol/methods.js';
import { c2s, handshake, lines, ping, recordLine, s2c } from './examples.js';
import type { GapEntry } from '../record/schema.js';
import type { RuleFamily } from './types.js';

const families = Object.keys(methodsByRevision['2024-11-05']) as MethodFamily[];

/** Whether a revision defines a method at all, whoever sends it. */
function defines(revision: string, method: string): boolean {
  return isKnownRevision(revision) && families.some((family) => methodsOf(revision, family).includes(method));
}

function isNotificationMethod(revision: string | undefined, method: string): boolean {
  if (method.startsWith('notifications/')) return true;
  if (!isKnownRevision(revision)) return false;
  const notifications = [...methodsOf(revision, 'clientNotifications'), ...methodsOf(revision, 'serverNotifications')];
  const requests = [...methodsOf(revision, 'clientRequests'), ...methodsOf(revision, 'serverRequests')];
  return notifications.includes(method) && !requests.includes(method);
}

/** Before `notifications/initialized`, a client may only ping; before answering initialize, a server may only ping. */
const allowedEarly = new Set(['initialize', 'ping']);

/** What a gap says it lost: bytes of a stream, or entries a file did not take. */
function lostOf(gap: GapEntry): string {
  if (gap.lost === undefined) return '';
  if (gap.unit === 'entries') return ` (${String(gap.lost)} entries)`;
  return gap.stream === undefined ? ` (${String(gap.lost)} bytes)` : ` (${String(gap.lost)} bytes of ${gap.stream})`;
}

/** Session rules: the handshake, the methods of the revision, answers that never came. */
export const lifecycleRules: RuleFamily = {
  rules: [
    {
      id: 'unanswered-request',
      severity: 'error',
      summary: noteTexts['unanswered-request'],
      bad: c2s({ id: 1, method: 'ping' }),
      good: lines(ping(1)),
    },
    {
      id: 'before-initialized',
      severity: 'error',
      summary: 'a request other than ping before the handshake completed (initialize answered, then notifications/initialized)',
      bad: lines(handshake('2025-06-18', { tools: {} }).slice(0, 2), c2s({ id: 1, method: 'tools/list' }), s2c({ id: 1, result: { tools: [] } })),
      good: lines(handshake('2025-06-18', { tools: {} }), c2s({ id: 1, method: 'tools/list' }), s2c({ id: 1, result: { tools: [] } })),
    },
    {
      id: 'method-not-in-revision',
      severity: 'warn',
      summary: "a method that the session's protocol revision does not define",
      bad: lines(
        handshake('2025-06-18', { tools: {} }),
        c2s({ id: 1, method: 'tools/search' }),
        s2c({ id: 1, error: { code: -32601, message: 'Method not found' } }),
      ),
      good: lines(handshake('2025-06-18', { tools: {} }), c2s({ id: 1, method: 'tools/list' }), s2c({ id: 1, result: { tools: [] } })),
    },
    {
      id: 'notification-with-id',
      severity: 'error',
      summary: 'a notification sent with an id, which makes it a request that no one will answer',
      bad: lines(handshake('2025-06-18').slice(0, 2), c2s({ id: 1, method: 'notifications/initialized' })),
      good: lines(handshake('2025-06-18')),
    },
    {
      id: 'record-gap',
      severity: 'warn',
      summary: 'the spy lost part of the traffic here (the record fell behind or failed); findings may be incomplete',
      bad: recordLine(1, { kind: 'gap', reason: 'record fell behind the traffic; entries dropped', lost: 12, unit: 'entries' }),
      good: lines(
        recordLine(1, { kind: 'spawn', transport: 'stdio', command: ['node', 'server.js'], pid: 4242 }),
        recordLine(2, { kind: 'exit', code: 0, signal: null }),
      ),
    },
  ],
  frame({ entry, state, report }) {
    const { facts } = state;
    const method = typeof entry.method === 'string' ? entry.method : undefined;
    const revision = facts.revision;
    if (entry.kind === 'request' && method) {
      if (isNotificationMethod(revision, method))
        report('notification-with-id', `${method} is a notification but was sent with id ${JSON.stringify(entry.id)}`);
      const early = !isStatelessRevision(revision) && facts.handshake.initialize && !allowedEarly.has(method);
      if (early && entry.dir === 'c2s' && !facts.handshake.initialized) report('before-initialized', `${method} sent before notifications/initialized`);
      if (early && entry.dir === 's2c' && !facts.handshake.answered) report('before-initialized', `the server sent ${method} before answering initialize`);
    }
    if ((entry.kind === 'request' || entry.kind === 'notification') && method && revision && isKnownRevision(revision) && !defines(revision, method)) {
      report('method-not-in-revision', `${method} is not defined in revision ${revision}`);
    }
  },
  event({ entry, report }) {
    if (entry.kind === 'gap') report('record-gap', `the spy lost traffic here: ${String(entry.reason ?? 'unknown reason')}${lostOf(entry)}`);
  },
  end({ state, report }) {
    for (const request of state.answers.unanswered(state.facts.session)) {
      const what = `${request.method ?? '?'} #${JSON.stringify(request.id)}${request.tool ? ` (tool ${request.tool})` : ''}`;
      report('unanswered-request', `${what} was never answered`, { seq: request.seq, lineNo: request.lineNo });
    }
  },
};
