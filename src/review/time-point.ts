/**
 * The one meaning of a time given on the command line, for `--since`, `--until` and the filter
 * language's `time` field alike. Record times are ISO 8601 UTC; a time the user gives is UTC too
 * (a trailing `Z` says so), or the machine's time zone when asked (`--local`).
 */
export type TimePoint = { ok: true; read: (t: unknown) => string | number | undefined; at: string | number } | { ok: false; message: string };

const timeOfDay = /^(\d\d):(\d\d)(?::(\d\d)(?:\.(\d{1,3}))?)?(Z)?$/i;
const fullDate = /^(\d{4})-(\d\d)-(\d\d)(?:[T ](\d\d):(\d\d)(?::(\d\d)(?:\.(\d{1,3}))?)?)?(Z|[+-]\d\d:?\d\d)?$/i;

const timeExamples = 'a time such as 14:05, 14:05:30.250 or 2026-07-28T14:05:00Z';

const pad = (value: number, width = 2) => String(value).padStart(width, '0');

/** The clock time of an ISO time, `HH:MM:SS.mmm`, in UTC or in the machine's zone. */
export function clockTime(t: unknown, local: boolean): string | undefined {
  if (typeof t !== 'string') return undefined;
  const at = new Date(t);
  if (Number.isNaN(at.getTime())) return undefined;
  if (!local) return at.toISOString().slice(11, 23);
  return `${pad(at.getHours())}:${pad(at.getMinutes())}:${pad(at.getSeconds())}.${pad(at.getMilliseconds(), 3)}`;
}

const inRange = (parts: (string | undefined)[], limits: number[]) => parts.every((part, index) => part === undefined || Number(part) < limits[index]!);

function daysIn(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

function parseTimeOfDay(match: RegExpMatchArray, local: boolean): TimePoint | undefined {
  const [, hh, mm, ss, ms, zone] = match;
  if (!inRange([hh, mm, ss], [24, 60, 60])) return undefined;
  const at = `${hh}:${mm}${ss !== undefined ? `:${ss}` : ''}${ms !== undefined ? `.${ms}` : ''}`;
  // A `Z` names UTC even under --local. The entry's clock time is compared as far as the value goes.
  const inLocal = local && zone === undefined;
  return { ok: true, read: (t) => clockTime(t, inLocal)?.slice(0, at.length), at };
}

function parseFullDate(match: RegExpMatchArray, local: boolean): TimePoint | undefined {
  const [, y, mo, d, hh = '00', mm = '00', ss = '00', ms = '0', zone] = match;
  const [year, month, day] = [Number(y), Number(mo), Number(d)];
  if (month < 1 || month > 12 || day < 1 || day > daysIn(year, month)) return undefined;
  if (!inRange([hh, mm, ss], [24, 60, 60])) return undefined;
  const fields = [year, month - 1, day, Number(hh), Number(mm), Number(ss), Number(ms.padEnd(3, '0'))] as const;
  let at: number;
  if (zone === undefined) at = local ? new Date(...fields).getTime() : Date.UTC(...fields);
  else at = Date.parse(`${y}-${mo}-${d}T${hh}:${mm}:${ss}.${ms.padEnd(3, '0')}${zone.toUpperCase()}`);
  if (Number.isNaN(at)) return undefined;
  return { ok: true, read: (t) => (typeof t === 'string' ? Date.parse(t) : undefined), at };
}

/** Reads a time of day or a full date; anything else (25:00, 14:61, 2026-13-01) is a message. */
export function parseTimePoint(value: string, local = false): TimePoint {
  const text = value.trim();
  const day = text.match(timeOfDay);
  const date = day ? undefined : text.match(fullDate);
  const point = day ? parseTimeOfDay(day, local) : date ? parseFullDate(date, local) : undefined;
  return point ?? { ok: false, message: `expected ${timeExamples}, in ${local ? "this machine's time zone (--local)" : 'UTC'}` };
}
