/**
 * Rule ids that annotate frames (`notes` in the record), each with the one line a person reads.
 * The ids are public: users grep for them and `check` reports them.
 */
export const noteTexts = {
  'stdout-noise': 'the server wrote something on stdout that is not a JSON-RPC message',
  'not-json': 'the frame is not JSON',
  'not-utf8': 'the frame is not valid UTF-8',
  'not-jsonrpc': 'the frame is JSON but not a JSON-RPC 2.0 message',
  'invalid-id': 'the id is neither a string nor a number',
  'id-null': 'the request id is null',
  'duplicate-id': 'the request id was already used by the same sender in this session',
  'orphan-response': 'a response to no request seen in this session',
  'result-and-error': 'the response carries both result and error',
  'error-without-id':
    'an error response without the id of the request it answers (none, or null), for an error other than parse error (-32700) or invalid request (-32600), the only ones whose request id may be unreadable',
  'bad-error-object': 'the error is not an object with an integer code and a string message',
  'unanswered-request': 'the request was never answered',
  'batch-forbidden': 'a JSON-RPC batch, which this protocol revision does not allow',
  'frame-too-large': 'the frame is larger than the parse limit; it was forwarded whole and recorded in part',
  'nested-too-deep': 'the frame nests deeper than 1000 levels; it was forwarded whole and recorded cut at that depth',
  'unknown-progress-token': 'progress for a token no pending request carries',
  'cancel-unknown-request': 'cancellation of a request that is not pending',
  'header-mismatch': 'an MCP HTTP header disagrees with the body',
  'client-gone': 'the client closed its end of the stdio stream while the server still wrote to it',
  'client-closed':
    'a server request the client closed its input on (sent after the close, or just before it with nothing from the client since): no one will answer it',
  'tool-changed-mid-session': 'the server changed its tools after the client had listed them, in the same session',
  'tool-definition-changed': 'a tool whose definition differs from its pin in the baseline (or that the baseline does not pin)',
  'request-state-mismatch': 'a retry whose requestState is not the one the server sent with its input_required result',
  'torn-line': 'the file ended mid-line when this run began appending (a run before was cut short: a full disk, a kill); readers skip the cut line',
  'spans-dropped': 'spans the OTLP collector did not take were dropped (the record itself is complete)',
  'session-expired': 'an HTTP session never ended by DELETE that the spy stopped following (idle too long, or too many open)',
} as const;

export type NoteId = keyof typeof noteTexts;
