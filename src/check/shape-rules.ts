import { errorCodeNames } from '../protocol/error-codes.js';
import { isObject, pick } from '../protocol/jsonrpc.js';
import { lookup } from '../protocol/own-table.js';
import { isStatelessRevision } from '../protocol/revisions.js';
import { c2s, lines, s2c } from './examples.js';
import { describeIssues, notificationSchemas, requestSchemas, resultSchemas, type ShapeSchema } from './sdk-schemas.js';
import type { RuleFamily } from './types.js';

/** JSON-RPC reserves -32768..-32000; -32099..-32000 is left to implementations (MCP's own codes live there). */
function isReservedUndefined(code: unknown): boolean {
  if (typeof code !== 'number' || code < -32768 || code > -32000) return false;
  if (code >= -32099) return false;
  return errorCodeNames[code] === undefined;
}

/** The schemas of each kind of frame, by method. */
const schemaTables: Readonly<Record<string, Readonly<Record<string, ShapeSchema>>>> = {
  request: requestSchemas,
  notification: notificationSchemas,
  response: resultSchemas,
  'tool-error': resultSchemas,
};

/** Message shapes, checked with the official SDK's schemas; error codes. */
export const shapeRules: RuleFamily = {
  rules: [
    {
      id: 'message-shape',
      severity: 'error',
      summary: "a message whose params or result do not have the shape the protocol's schema gives its method",
      bad: lines(
        c2s({ id: 1, method: 'tools/call', params: { arguments: { text: 'hi' } } }),
        s2c({ id: 1, error: { code: -32602, message: 'Invalid params' } }),
      ),
      good: lines(
        c2s({ id: 1, method: 'tools/call', params: { name: 'echo', arguments: { text: 'hi' } } }),
        s2c({ id: 1, result: { content: [{ type: 'text', text: 'hi' }] } }),
      ),
    },
    {
      id: 'reserved-error-code',
      severity: 'warn',
      summary: 'an error code in the range JSON-RPC reserves for itself (-32768 to -32100) that no specification defines',
      bad: lines(c2s({ id: 1, method: 'ping' }), s2c({ id: 1, error: { code: -32400, message: 'Bad request' } })),
      good: lines(c2s({ id: 1, method: 'ping' }), s2c({ id: 1, error: { code: -32603, message: 'Internal error' } })),
    },
  ],
  frame({ entry, message, report }) {
    if (!isObject(message) || typeof entry.method !== 'string') return;
    const method = entry.method;
    if (entry.kind === 'protocol-error') {
      const code = pick(message, 'error', 'code');
      if (isReservedUndefined(code)) report('reserved-error-code', `error code ${String(code)} (answering ${method}) is reserved by JSON-RPC and not defined`);
      return;
    }
    // The SDK's tasks schemas are 2025-11-25's core tasks; 2026-07-28 moved tasks to an extension of other shapes.
    if (method.startsWith('tasks/') && isStatelessRevision(typeof entry.rev === 'string' ? entry.rev : undefined)) return;
    const table = lookup(schemaTables, entry.kind);
    const schema = table && lookup(table, method);
    if (!schema) return;
    const body = entry.kind === 'response' || entry.kind === 'tool-error' ? message.result : message;
    // 2026-07-28: a result that asks for more input has a shape of its own.
    if (isObject(body) && typeof body.resultType === 'string' && body.resultType !== 'complete') return;
    const parsed = schema.safeParse(body);
    if (!parsed.success) {
      const what = entry.kind === 'response' || entry.kind === 'tool-error' ? `result of ${method}` : method;
      report('message-shape', `${what}: ${describeIssues(parsed.error.issues)}`);
    }
  },
};
