// The small parts an HTTP exchange is observed with, made once per exchange: each keeps only what it was given.
import { describe, expect, it } from 'vitest';
import { BodyCollector } from '../../src/wire/framing/body-collector.js';
import { RecentIds } from '../../src/wire/correlate/recent-ids.js';
import { createHeaderRedactor, redactedValue } from '../../src/wire/http/redact-headers.js';

describe('the recent ids of a session', () => {
  it('tells an id from the same id as text, before and after it outgrows its few first ids', () => {
    const ids = new RecentIds<string | number | null>(100, 1);
    expect([ids.has(1), ids.has('1'), ids.has(null)]).toEqual([true, false, false]);
    for (let id = 2; id <= 20; id++) ids.remember(id);
    ids.remember(null);
    expect([ids.has(1), ids.has('1'), ids.has(20), ids.has(null), ids.size]).toEqual([true, false, true, true, 21]);
  });

  it('forgets an id at once, whether it still searches its ring or has built its set', () => {
    const few = new RecentIds(100, 'a');
    few.remember('b');
    expect(few.forget('a')).toBe(true);
    expect(few.forget('a')).toBe(false);
    expect([few.has('a'), few.has('b'), few.size]).toEqual([false, true, 1]);
    for (let id = 0; id < 10; id++) few.remember(`n${id}`);
    expect([few.has('a'), few.has('b'), few.size]).toEqual([false, true, 11]);
    expect(few.forget('b')).toBe(true);
    expect([few.has('b'), few.size]).toEqual([false, 10]);
  });

  it('keeps the last `capacity` ids, searching its ring or its set alike', () => {
    for (const capacity of [3, 12]) {
      const ids = new RecentIds(capacity, 0);
      for (let id = 1; id < 2 * capacity; id++) ids.remember(id);
      expect(ids.size).toBe(capacity);
      expect(ids.has(capacity - 1)).toBe(false);
      expect(ids.has(capacity)).toBe(true);
    }
  });
});

describe('the body collector of an exchange', () => {
  it('gives a body that came in one chunk as that chunk, and several chunks joined', () => {
    const one = new BodyCollector(100);
    const chunk = Buffer.from('{"jsonrpc":"2.0"}');
    one.push(chunk);
    expect(one.take()).toEqual({ bytes: chunk, size: chunk.length });
    expect(one.take()!.bytes).toBe(chunk);
    const several = new BodyCollector(100);
    for (const part of ['ab', '', 'cd']) several.push(Buffer.from(part));
    expect(several.take()).toEqual({ bytes: Buffer.from('abcd'), size: 4 });
  });

  it('keeps at most its limit and counts the rest; an empty body is none', () => {
    const body = new BodyCollector(5);
    for (const part of ['abc', 'defg', 'hi']) body.push(Buffer.from(part));
    expect(body.take()).toEqual({ bytes: Buffer.from('abcde'), size: 9, truncated: true });
    const empty = new BodyCollector(5);
    empty.push(Buffer.alloc(0));
    expect(empty.take()).toBeUndefined();
    expect(new BodyCollector(5).take()).toBeUndefined();
  });
});

describe('the header redactor', () => {
  const headers = {
    authorization: 'Bearer tok-123456789',
    location: 'http://a/cb?code=code-987654321&state=s',
    'x-key': 'key-55555555',
    accept: '*/*',
    skipped: undefined,
  };

  it('learns, as headers arrive, the secrets their copy masks, in the order the copy meets them', () => {
    const learnt: string[] = [];
    const redactor = createHeaderRedactor(['X-Key'], true, (secret) => learnt.push(secret));
    redactor.learn(headers);
    expect(learnt).toEqual(['Bearer tok-123456789', 'tok-123456789', 'code-987654321', 'key-55555555', 'key-55555555']);
    const copy = redactor.copy(headers);
    expect({ ...copy }).toEqual({ authorization: redactedValue, location: `http://a/cb?code=${redactedValue}&state=s`, 'x-key': redactedValue, accept: '*/*' });
  });

  it('learns nothing and keeps every value with --no-redact', () => {
    const learnt: string[] = [];
    const redactor = createHeaderRedactor(['x-key'], false, (secret) => learnt.push(secret));
    redactor.learn(headers);
    expect({ ...redactor.copy(headers) }).toEqual({
      authorization: 'Bearer tok-123456789',
      location: headers.location,
      'x-key': 'key-55555555',
      accept: '*/*',
    });
    expect(learnt).toEqual([]);
  });

  it('reads only the headers given, a header named __proto__ as data', () => {
    const hostile = JSON.parse('{"__proto__":"x","cookie":["a=secret-1111","b=secret-2222"]}') as Record<string, string | string[]>;
    const learnt: string[] = [];
    const redactor = createHeaderRedactor(['constructor', 'toString'], true, (secret) => learnt.push(secret));
    redactor.learn(hostile);
    expect(learnt).toEqual(['a=secret-1111', 'a=secret-1111', 'b=secret-2222', 'b=secret-2222']);
    const copy = redactor.copy(hostile);
    expect(Object.getPrototypeOf(copy)).toBeNull();
    expect(Object.entries(copy)).toEqual([
      ['__proto__', 'x'],
      ['cookie', [redactedValue, redactedValue]],
    ]);
  });
});
