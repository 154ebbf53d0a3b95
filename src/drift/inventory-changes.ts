import { isObject, type JsonObject } from '../protocol/jsonrpc.js';
import { canonicalJson } from '../protocol/canonical-json.js';
import { change, type Change, type ChangeArea } from './change.js';
import { inputSchemaChanges, outputSchemaChanges } from './schema-changes.js';

const same = (a: unknown, b: unknown) => canonicalJson(a) === canonicalJson(b);

/** What a tool's annotations mean when they are absent (the specification's defaults). */
const hint = (tool: JsonObject, key: 'readOnlyHint' | 'destructiveHint', absent: boolean): boolean => {
  const value = isObject(tool.annotations) ? tool.annotations[key] : undefined;
  return typeof value === 'boolean' ? value : absent;
};

/** A tool that writes is destructive unless it says otherwise; a read-only tool is not. */
const destructive = (tool: JsonObject) => !hint(tool, 'readOnlyHint', false) && hint(tool, 'destructiveHint', true);

function toolChanges(name: string, before: JsonObject, after: JsonObject): Change[] {
  const out: Change[] = [];
  const values = (key: string) => ({ before: before[key], after: after[key] });
  if (!same(before.description, after.description))
    out.push(change('risky', 'tool', name, "description changed: the model's instructions changed", values('description')));
  if (!same(before.title, after.title)) out.push(change('compatible', 'tool', name, 'title changed', values('title')));
  out.push(...inputSchemaChanges('tool', name, before.inputSchema, after.inputSchema));
  out.push(...outputSchemaChanges(name, before.outputSchema, after.outputSchema));
  if (!same(before.annotations, after.annotations)) {
    if (hint(before, 'readOnlyHint', false) && !hint(after, 'readOnlyHint', false))
      out.push(change('breaking', 'tool', name, 'no longer read-only (readOnlyHint)', values('annotations')));
    else if (!destructive(before) && destructive(after)) out.push(change('breaking', 'tool', name, 'now destructive (destructiveHint)', values('annotations')));
    else out.push(change('compatible', 'tool', name, 'annotations changed', values('annotations')));
  }
  const told = new Set(['name', 'description', 'title', 'inputSchema', 'outputSchema', 'annotations', '_meta']);
  const rest = (tool: JsonObject) => Object.fromEntries(Object.entries(tool).filter(([key]) => !told.has(key)));
  if (!same(rest(before), rest(after))) out.push(change('compatible', 'tool', name, 'other fields changed', { before: rest(before), after: rest(after) }));
  return out;
}

/** A prompt's arguments as a schema, so they are judged as a tool's are. */
function argumentsSchema(prompt: JsonObject): JsonObject {
  const args = Array.isArray(prompt.arguments) ? prompt.arguments.filter(isObject) : [];
  const named = args.filter((arg) => typeof arg.name === 'string');
  return {
    properties: Object.fromEntries(named.map((arg) => [arg.name as string, { description: arg.description }])),
    required: named.filter((arg) => arg.required === true).map((arg) => arg.name),
  };
}

function promptChanges(name: string, before: JsonObject, after: JsonObject): Change[] {
  const out: Change[] = [];
  if (!same(before.description, after.description))
    out.push(change('risky', 'prompt', name, 'description changed', { before: before.description, after: after.description }));
  out.push(...inputSchemaChanges('prompt', name, argumentsSchema(before), argumentsSchema(after)));
  return out;
}

function resourceChanges(key: string, before: JsonObject, after: JsonObject): Change[] {
  const out: Change[] = [];
  if (!same(before.description, after.description))
    out.push(change('risky', 'resource', key, 'description changed', { before: before.description, after: after.description }));
  if (!same(before.mimeType, after.mimeType))
    out.push(change('breaking', 'resource', key, 'mimeType changed', { before: before.mimeType, after: after.mimeType }));
  for (const field of ['name', 'title']) {
    if (!same(before[field], after[field])) out.push(change('compatible', 'resource', key, `${field} changed`, { before: before[field], after: after[field] }));
  }
  return out;
}

const inventoryRules: Record<'tool' | 'prompt' | 'resource', (key: string, before: JsonObject, after: JsonObject) => Change[]> = {
  tool: toolChanges,
  prompt: promptChanges,
  resource: resourceChanges,
};

/** What was added, removed and changed between two inventories of one kind (tools by name, ...). */
export function inventoryChanges(
  area: Extract<ChangeArea, 'tool' | 'prompt' | 'resource'>,
  before: ReadonlyMap<string, JsonObject>,
  after: ReadonlyMap<string, JsonObject>,
): Change[] {
  const out: Change[] = [];
  for (const [key, item] of before) if (!after.has(key)) out.push(change('breaking', area, key, `${area} removed`, { before: item }));
  for (const [key, item] of after) {
    const was = before.get(key);
    if (!was) out.push(change('compatible', area, key, `${area} added`, { after: item }));
    else out.push(...inventoryRules[area](key, was, item));
  }
  return out;
}
