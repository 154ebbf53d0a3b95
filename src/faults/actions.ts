// The actions a rule can name: how each reads its words, and on which transports it can happen.
import type { CorruptMode, FaultAction, NoiseStream } from './rule-types.js';
import type { Token } from './tokens.js';

export type FaultTransport = 'stdio' | 'http';

const durationUnits: Record<string, number> = { ms: 1, s: 1000, m: 60_000 };

/** 3s, 1500ms, 0.5s, 2m, or a bare number of ms. */
export function durationMs(text: string): number | undefined {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m)?$/.exec(text.trim());
  return match ? Number(match[1]) * durationUnits[match[2] ?? 'ms']! : undefined;
}

type Parsed = { action: FaultAction } | { problem: string };

interface ActionSpec {
  /** How it reads its words (the when-words are already taken out). */
  read: (words: Token[]) => Parsed;
  transports: FaultTransport[];
  /** What it does, for --help and the README's table. */
  summary: string;
  /** A reading valid on one transport only: why not on this one (undefined: fine). */
  refuse?: (action: FaultAction, transport: FaultTransport) => string | undefined;
}

const none =
  (name: 'drop' | 'timeout' | 'disconnect' | 'expire-session') =>
  (words: Token[]): Parsed =>
    words.length === 0 ? { action: { name } } : { problem: `${name} takes no arguments (found ${words.map((w) => w.text).join(' ')})` };

function readDelay(words: Token[]): Parsed {
  const [first, ...rest] = words.map((w) => w.text);
  const ms = first === undefined ? undefined : durationMs(first);
  if (ms === undefined) return { problem: 'delay needs a duration such as 3s or 1500ms' };
  let jitterMs = 0;
  const jitter = rest.join(' ').replace(/^jitter[= ]?/, '');
  if (rest.length > 0) {
    if (!/^jitter/.test(rest[0]!)) return { problem: `delay takes a duration and jitter=DURATION (found ${rest.join(' ')})` };
    const read = durationMs(jitter);
    if (read === undefined) return { problem: 'jitter needs a duration such as 500ms' };
    jitterMs = read;
  }
  return { action: { name: 'delay', ms, jitterMs } };
}

function readError(words: Token[]): Parsed {
  const [code, message, ...rest] = words;
  if (!code || !/^-?\d+$/.test(code.text)) return { problem: 'error needs a JSON-RPC error code such as -32603, then a quoted message' };
  if (rest.length > 0) return { problem: `error takes a code and one quoted message (found ${rest.map((w) => w.text).join(' ')}: quote the message)` };
  return { action: { name: 'error', code: Number(code.text), message: message?.text ?? 'injected by mcp-spy' } };
}

function readToolError(words: Token[]): Parsed {
  if (words.length > 1) return { problem: 'tool-error takes one quoted text' };
  return { action: { name: 'tool-error', text: words[0]?.text ?? 'injected by mcp-spy' } };
}

const corruptModes: CorruptMode[] = ['invalid-json', 'cut', 'wrong-id'];

function readCorrupt(words: Token[]): Parsed {
  const mode = (words[0]?.text ?? 'invalid-json') as CorruptMode;
  if (words.length > 1 || !corruptModes.includes(mode)) return { problem: `corrupt takes one of ${corruptModes.join(', ')}` };
  return { action: { name: 'corrupt', mode } };
}

function readNoise(words: Token[]): Parsed {
  const [first, ...rest] = words;
  const stream = first && !first.quoted && (first.text === 'stdout' || first.text === 'stderr') ? (first.text as NoiseStream) : undefined;
  const text = stream ? rest : words;
  if (text.length > 1) return { problem: 'noise takes stdout or stderr, then one quoted text' };
  return { action: { name: 'noise', stream: stream ?? 'stdout', text: text[0]?.text ?? 'mcp-spy: injected noise' } };
}

function readStatus(words: Token[]): Parsed {
  const [status, ...rest] = words.map((w) => w.text);
  if (!status || !/^\d{3}$/.test(status) || Number(status) < 400) return { problem: 'status needs an HTTP error status such as 429 or 503' };
  let retryAfter: number | undefined;
  for (const word of rest) {
    const match = /^retry-after=(\d+)$/.exec(word);
    if (!match) return { problem: `status takes retry-after=SECONDS (found ${word})` };
    retryAfter = Number(match[1]);
  }
  return { action: { name: 'status', status: Number(status), ...(retryAfter !== undefined ? { retryAfter } : {}) } };
}

function readSlowStream(words: Token[]): Parsed {
  const ms = words.length === 1 ? durationMs(words[0]!.text) : undefined;
  if (ms === undefined) return { problem: 'slow-stream needs one duration, the pause before each event, such as 500ms' };
  return { action: { name: 'slow-stream', ms } };
}

function readCutStream(words: Token[]): Parsed {
  const count = words[0]?.text ?? '0';
  if (words.length > 1 || !/^\d+$/.test(count)) return { problem: 'cut-stream takes the number of messages to let through first (0, the default: none)' };
  return { action: { name: 'cut-stream', messages: Number(count) } };
}

/** On HTTP noise goes into the answer: the server's stderr is not on the wire. */
function refuseNoise(action: FaultAction, transport: FaultTransport): string | undefined {
  return transport === 'http' && action.name === 'noise' && action.stream === 'stderr'
    ? 'noise stderr is for stdio: on HTTP noise goes into the answer (write noise "text")'
    : undefined;
}

/** Every action, by the name a rule gives it. */
export const actionSpecs = {
  delay: {
    read: readDelay,
    transports: ['stdio', 'http'],
    summary: 'hold the frame DURATION (jitter=DURATION adds up to that much, either way), then pass it on',
  },
  error: { read: readError, transports: ['stdio', 'http'], summary: 'answer a request with a JSON-RPC error CODE "message"; it never reaches the peer' },
  'tool-error': {
    read: readToolError,
    transports: ['stdio', 'http'],
    summary: 'answer a request with an isError result holding "text"; it never reaches the peer',
  },
  drop: { read: none('drop'), transports: ['stdio', 'http'], summary: 'deliver the frame to no one, answer nothing' },
  timeout: {
    read: none('timeout'),
    transports: ['stdio', 'http'],
    summary: 'hold a request unanswered until the sender cancels it or the session ends; it never reaches the peer',
  },
  corrupt: {
    read: readCorrupt,
    transports: ['stdio', 'http'],
    summary: 'spoil the answer to a request (or the frame itself): invalid-json, cut (half of it) or wrong-id; on HTTP in a JSON body or an SSE event alike',
  },
  disconnect: {
    read: none('disconnect'),
    transports: ['stdio', 'http'],
    summary: "stdio: close the server's stdio as a crash would; HTTP: reset the connection",
  },
  noise: {
    read: readNoise,
    transports: ['stdio', 'http'],
    refuse: refuseNoise,
    summary:
      'stdio: before the frame, a line of "text" on the server\'s stdout (a banner) or stderr; HTTP: an event of "text" before the SSE answer, a line of it before a JSON body',
  },
  status: { read: readStatus, transports: ['http'], summary: 'answer the HTTP request with STATUS (retry-after=SECONDS adds Retry-After)' },
  'expire-session': { read: none('expire-session'), transports: ['http'], summary: 'answer 404, as a server does to a session id it no longer knows' },
  'slow-stream': {
    read: readSlowStream,
    transports: ['http'],
    summary: 'pass the request on; hold each event of its SSE answer DURATION after the one before (a JSON body: once), bytes unchanged',
  },
  'cut-stream': {
    read: readCutStream,
    transports: ['http'],
    summary: 'pass the request on; let N messages of its answer through (0 by default), then close the connection before the answer',
  },
} satisfies Record<FaultAction['name'], ActionSpec>;
