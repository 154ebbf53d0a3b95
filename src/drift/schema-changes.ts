import { isObject, type JsonObject } from '../protocol/jsonrpc.js';
import { canonicalJson } from '../protocol/canonical-json.js';
import { change, type Change, type ChangeArea } from './change.js';

const propertiesOf = (schema: unknown): JsonObject => (isObject(schema) && isObject(schema.properties) ? schema.properties : {});
const requiredOf = (schema: unknown): Set<string> =>
  new Set(isObject(schema) && Array.isArray(schema.required) ? schema.required.filter((name): name is string => typeof name === 'string') : []);
const own = (object: JsonObject) => Object.keys(object);

/** The JSON types a schema admits (`integer` is within `number`); undefined: any. */
function typesOf(schema: unknown): Set<string> | undefined {
  if (!isObject(schema)) return undefined;
  const type = schema.type;
  if (typeof type === 'string') return new Set([type]);
  if (Array.isArray(type)) return new Set(type.filter((item): item is string => typeof item === 'string'));
  return undefined;
}

/** Whether every value the `wide` types admit is admitted by `narrow` too. */
function admitsAll(narrow: Set<string> | undefined, wide: Set<string> | undefined): boolean {
  if (narrow === undefined) return true;
  if (wide === undefined) return false;
  return [...wide].every((type) => narrow.has(type) || (type === 'integer' && narrow.has('number')));
}

function enumOf(schema: unknown): string[] | undefined {
  return isObject(schema) && Array.isArray(schema.enum) ? schema.enum.map((value) => canonicalJson(value)) : undefined;
}

/** Whether the values `after` admits are fewer than before: a type or an enum narrowed. */
function narrowed(before: unknown, after: unknown): boolean {
  if (!admitsAll(typesOf(after), typesOf(before))) return true;
  const was = enumOf(before);
  const now = enumOf(after);
  if (now && !was) return true;
  return was?.some((value) => now !== undefined && !now.includes(value)) ?? false;
}

const same = (a: unknown, b: unknown) => canonicalJson(a) === canonicalJson(b);
const descriptionOf = (schema: unknown) => (isObject(schema) ? schema.description : undefined);
const withoutDescription = (schema: unknown) => (isObject(schema) ? { ...schema, description: undefined } : schema);

/**
 * How a tool's (or prompt's) arguments changed, for the client that sends them: an argument added
 * as required, removed, made required, or narrowed breaks it; a new optional argument does not; a
 * changed argument description changes what the model is told.
 */
export function inputSchemaChanges(area: ChangeArea, subject: string, before: unknown, after: unknown): Change[] {
  const out: Change[] = [];
  const [was, now] = [propertiesOf(before), propertiesOf(after)];
  const [wasRequired, nowRequired] = [requiredOf(before), requiredOf(after)];
  for (const name of own(now)) {
    if (Object.hasOwn(was, name)) continue;
    if (nowRequired.has(name)) out.push(change('breaking', area, subject, `required argument \`${name}\` added`, { after: now[name] }));
    else out.push(change('compatible', area, subject, `optional argument \`${name}\` added`, { after: now[name] }));
  }
  for (const name of own(was)) {
    if (!Object.hasOwn(now, name)) {
      out.push(change('breaking', area, subject, `argument \`${name}\` removed`, { before: was[name] }));
      continue;
    }
    const values = { before: was[name], after: now[name] };
    if (!wasRequired.has(name) && nowRequired.has(name)) out.push(change('breaking', area, subject, `argument \`${name}\` is now required`));
    if (wasRequired.has(name) && !nowRequired.has(name)) out.push(change('compatible', area, subject, `argument \`${name}\` is no longer required`));
    if (same(was[name], now[name])) continue;
    if (narrowed(was[name], now[name]))
      out.push(change('breaking', area, subject, `argument \`${name}\` narrowed: it admits fewer values than before`, values));
    else if (!same(descriptionOf(was[name]), descriptionOf(now[name])))
      out.push(change('risky', area, subject, `description of argument \`${name}\` changed`, values));
    else if (!same(withoutDescription(was[name]), withoutDescription(now[name])))
      out.push(change('risky', area, subject, `schema of argument \`${name}\` changed`, values));
  }
  const closed = (schema: unknown) => isObject(schema) && schema.additionalProperties === false;
  if (!closed(before) && closed(after))
    out.push(change('breaking', area, subject, 'arguments not in the schema are now refused (additionalProperties: false)'));
  return out;
}

/**
 * How a tool's outputSchema changed, for the client that reads its structuredContent: a field removed,
 * no longer promised, or admitting values it did not before breaks it; a field added does not.
 */
export function outputSchemaChanges(subject: string, before: unknown, after: unknown): Change[] {
  if (same(before, after)) return [];
  if (before === undefined) return [change('compatible', 'tool', subject, 'outputSchema added', { after })];
  if (after === undefined) return [change('breaking', 'tool', subject, 'outputSchema removed: its structuredContent is no longer promised', { before })];
  const out: Change[] = [];
  const [was, now] = [propertiesOf(before), propertiesOf(after)];
  const [wasRequired, nowRequired] = [requiredOf(before), requiredOf(after)];
  for (const name of own(now))
    if (!Object.hasOwn(was, name)) out.push(change('compatible', 'tool', subject, `output field \`${name}\` added`, { after: now[name] }));
  for (const name of own(was)) {
    if (!Object.hasOwn(now, name)) {
      out.push(change('breaking', 'tool', subject, `output field \`${name}\` removed`, { before: was[name] }));
      continue;
    }
    if (wasRequired.has(name) && !nowRequired.has(name)) out.push(change('breaking', 'tool', subject, `output field \`${name}\` is no longer always present`));
    if (same(was[name], now[name])) continue;
    const values = { before: was[name], after: now[name] };
    // The client reads the output: a wider type is what it may not expect.
    if (narrowed(now[name], was[name])) out.push(change('breaking', 'tool', subject, `output field \`${name}\` may now hold values it did not before`, values));
    else out.push(change('risky', 'tool', subject, `schema of output field \`${name}\` changed`, values));
  }
  if (out.length === 0) out.push(change('risky', 'tool', subject, 'outputSchema changed', { before, after }));
  return out;
}
