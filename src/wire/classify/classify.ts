import { isObject, isValidId, type JsonRpcId } from '../../protocol/jsonrpc.js';
import type { NoteId } from '../../protocol/notes.js';
import type { FrameKind } from './kinds.js';

/** What one JSON-RPC message is, before correlation. */
export interface Classified {
  kind: FrameKind;
  method?: string;
  id?: JsonRpcId;
  hasId: boolean;
  error?: { code: unknown; message: unknown; data?: unknown };
  notes: NoteId[];
}

/** The errors that may answer without the request's id (null, or from 2025-11-25 none): it could not be read. */
const idUnreadable = new Set([-32700, -32600]);

function invalid(note: NoteId, extra: Partial<Classified> = {}): Classified {
  return { kind: 'invalid', hasId: false, notes: [note], ...extra };
}

function isErrorObject(value: unknown): boolean {
  return isObject(value) && Number.isInteger(value.code) && typeof value.message === 'string';
}

/** Classifies one parsed message (a batch member or a whole frame). Never throws. */
export function classifyMessage(value: unknown): Classified {
  if (!isObject(value) || value.jsonrpc !== '2.0') return invalid('not-jsonrpc');
  const hasId = 'id' in value;
  const id = value.id;
  if (hasId && !isValidId(id)) return invalid('invalid-id', { method: typeof value.method === 'string' ? value.method : undefined });
  const known = hasId ? { hasId, id: id as JsonRpcId } : { hasId };

  if (typeof value.method === 'string') {
    if (!hasId) return { kind: 'notification', method: value.method, hasId, notes: [] };
    return { kind: 'request', method: value.method, ...known, notes: id === null ? ['id-null'] : [] };
  }
  if ('result' in value && 'error' in value) return invalid('result-and-error', known);
  if ('result' in value && hasId) {
    const toolError = isObject(value.result) && value.result.isError === true;
    return { kind: toolError ? 'tool-error' : 'response', ...known, notes: [] };
  }
  if ('error' in value) {
    if (!isErrorObject(value.error)) return invalid('bad-error-object', known);
    const error = value.error as Classified['error'] & object;
    return {
      kind: 'protocol-error',
      ...known,
      error: { code: error.code, message: error.message, ...('data' in error ? { data: error.data } : {}) },
      notes: (id === undefined || id === null) && !idUnreadable.has(error.code as number) ? ['error-without-id'] : [],
    };
  }
  return invalid('not-jsonrpc', known);
}
