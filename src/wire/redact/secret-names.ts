/**
 * Member names whose values are secrets wherever they stand in a frame (a tool's arguments, an
 * elicitation's answer, a result): masked in the record by default (--no-default-redact keeps them).
 * Compared without case, `-` or `_`, so `apiKey`, `api_key`, `API-KEY` and `ApiKey` are one name.
 * Only string and number values are masked: `password` as a property of an inputSchema is a schema.
 */
export const defaultSecretNames = [
  'password',
  'passwd',
  'passphrase',
  'secret',
  'client_secret',
  'secret_key',
  'secret_access_key',
  'private_key',
  'token',
  'access_token',
  'refresh_token',
  'id_token',
  'auth_token',
  'x_auth_token',
  'bearer_token',
  'session_token',
  'api_token',
  'api_key',
  'x_api_key',
  'authorization',
] as const;

const folded = (name: string) => name.toLowerCase().replace(/[-_]/g, '');
const names = new Set(defaultSecretNames.map(folded));

// Member names repeat (type, text, name, ...): each is folded once, up to a bound.
const verdicts = new Map<string, boolean>();

/** Whether a member of this name holds a secret by default. */
export function isSecretName(name: string): boolean {
  if (name.length > 24) return false;
  let verdict = verdicts.get(name);
  if (verdict === undefined) {
    verdict = names.has(folded(name));
    if (verdicts.size < 10_000) verdicts.set(name, verdict);
  }
  return verdict;
}

// A frame whose text names none of these (most frames) is not walked at all.
const mentionWords = ['pass', 'secret', 'private', 'token', 'key', 'authorization'];
const mention = new RegExp(mentionWords.join('|'), 'i');
/** Bytes of a span looked through at once: the string of a piece (one character a byte) dies young. */
const mentionPiece = 64 * 1024;
/** How far pieces overlap: a word cut between two is whole in the first. */
const mentionOverlap = Math.max(...mentionWords.map((word) => word.length)) - 1;

/**
 * Whether bytes (a span of lines, read as Latin-1: one character a byte) may name a member that
 * holds a secret: when not, no frame in them has anything masked by name. Looked for piece by
 * piece, without a string of them all (a span may hold frames of MiBs).
 */
export function mentionsSecretName(bytes: Buffer): boolean {
  for (let start = 0; start < bytes.length; start += mentionPiece) {
    const end = Math.min(bytes.length, start + mentionPiece + mentionOverlap);
    if (mention.test(bytes.toString('latin1', start, end))) return true;
    if (end === bytes.length) break;
  }
  return false;
}

/** Where a place is, from the message's root: member names and array indexes. */
export type Place = (string | number)[];

/**
 * The places in a message whose member name is a secret's and whose value is a string or a number;
 * empty when `text` (the frame's text) mentions no such name. It recurses: the frames it reads are
 * cut at protocol/depth's limit first, and one path, grown and shrunk, is all it allocates.
 */
export function secretPlaces(message: unknown, text: string): Place[] {
  return mention.test(text) ? placesIn(message) : [];
}

/**
 * A value with every member of a secret's name that holds a string or a number read as `masked`:
 * what replay and mock compare, so that a recording masked by default still matches live traffic.
 */
export function withSecretNamesMasked(value: unknown, masked: string): unknown {
  const places = placesIn(value);
  return places.length === 0 ? value : replaceAt(value, places, masked);
}

function placesIn(message: unknown): Place[] {
  if (typeof message !== 'object' || message === null) return [];
  const found: Place[] = [];
  const path: Place = [];
  const walk = (item: object) => {
    if (Array.isArray(item)) {
      for (let index = 0; index < item.length; index++) {
        const child: unknown = item[index];
        if (typeof child !== 'object' || child === null) continue;
        path.push(index);
        walk(child);
        path.pop();
      }
      return;
    }
    for (const key in item) {
      const child: unknown = (item as Record<string, unknown>)[key];
      if (typeof child === 'object' && child !== null) {
        path.push(key);
        walk(child);
        path.pop();
      } else if ((typeof child === 'string' || typeof child === 'number') && isSecretName(key)) found.push([...path, key]);
    }
  };
  walk(message);
  return found;
}

/** A copy of `message` with the value at each place replaced; only the containers on the way are copied. */
export function replaceAt(message: unknown, places: readonly Place[], value: unknown): unknown {
  const copies = new Map<object, Record<string | number, unknown>>();
  const copyOf = (item: object): Record<string | number, unknown> => {
    let copy = copies.get(item);
    if (!copy) {
      // Spread defines members: a key `__proto__` stays data.
      copy = (Array.isArray(item) ? [...item] : { ...item }) as Record<string | number, unknown>;
      copies.set(item, copy);
    }
    return copy;
  };
  const put = (to: object, key: string | number, child: unknown) =>
    Object.defineProperty(to, key, { value: child, enumerable: true, writable: true, configurable: true });
  const root = copyOf(message as object);
  for (const place of places) {
    let from = message as Record<string | number, unknown>;
    let to = root;
    for (let step = 0; step < place.length - 1; step++) {
      const key = place[step]!;
      from = from[key] as Record<string | number, unknown>;
      const next = copyOf(from);
      put(to, key, next);
      to = next;
    }
    put(to, place[place.length - 1]!, value);
  }
  return root;
}

/** A place in JSONPath's own notation, as `redacted` lists places: `$['params']['arguments']['apiKey']`. */
export const placePath = (place: Place) => `$${place.map((key) => (typeof key === 'number' ? `[${key}]` : `['${key}']`)).join('')}`;
