import { describe, expect, it } from 'vitest';
import { parseTimePoint } from '../../src/review/time-point.js';

const t = '2026-07-28T14:05:30.250Z';

describe('parseTimePoint', () => {
  it.each([
    ['14:05', '14:05'],
    ['14:05:30', '14:05:30'],
    ['14:05:30.250Z', '14:05:30.250'],
    ['23:59:59.9', '14:05:30.2'],
  ])("reads the time of day %s and compares the entry's UTC clock as far as it goes", (value, read) => {
    const point = parseTimePoint(value);
    expect(point.ok && point.read(t)).toBe(read);
  });

  it.each([
    ['2026-07-28', Date.UTC(2026, 6, 28)],
    ['2026-07-28T14:05', Date.UTC(2026, 6, 28, 14, 5)],
    ['2026-07-28 14:05:30.25Z', Date.UTC(2026, 6, 28, 14, 5, 30, 250)],
    ['2026-07-28T16:05:00+02:00', Date.UTC(2026, 6, 28, 14, 5)],
    ['2028-02-29', Date.UTC(2028, 1, 29)],
  ])('reads the date %s as UTC unless it names a zone', (value, at) => {
    expect(parseTimePoint(value)).toMatchObject({ ok: true, at });
  });

  it.each(['24:00', '14:60', '14:05:60', '2026-13-01', '2026-00-10', '2026-02-29', '2026-04-31', 'yesterday', '1405', ''])('refuses %j', (value) => {
    expect(parseTimePoint(value)).toEqual({ ok: false, message: 'expected a time such as 14:05, 14:05:30.250 or 2026-07-28T14:05:00Z, in UTC' });
  });

  it("reads a time without a zone in the machine's zone with local, and a Z as UTC still", () => {
    const local = parseTimePoint('2026-07-28T14:05', true);
    expect(local).toMatchObject({ ok: true, at: new Date(2026, 6, 28, 14, 5).getTime() });
    const utc = parseTimePoint('14:05:30.250Z', true);
    expect(utc.ok && utc.read(t)).toBe('14:05:30.250');
  });
});
