import { isObject, type JsonObject } from '../protocol/jsonrpc.js';

/** One piece of text a model reads about a tool, prompt or resource, and where it stands. */
export interface Told {
  where: string;
  text: string;
  /** A name (of the item or an argument) rather than prose. */
  name?: boolean;
}

/** What the model reads of one listed item: its kind and name, its texts, its argument names. */
export interface Listed {
  kind: 'tool' | 'prompt' | 'resource';
  name: string;
  told: Told[];
  description?: string;
  argumentNames: Set<string>;
}

/** Every description, title and property name of a JSON Schema, at any depth. */
function schemaTexts(schema: unknown, where: string, out: Told[], depth = 0) {
  if (!isObject(schema) || depth > 20) return;
  for (const key of ['description', 'title'] as const) if (typeof schema[key] === 'string') out.push({ where: `${where}.${key}`, text: schema[key] as string });
  if (isObject(schema.properties)) {
    for (const [name, property] of Object.entries(schema.properties)) {
      out.push({ where: `${where}.properties`, text: name, name: true });
      schemaTexts(property, `${where}.properties.${name}`, out, depth + 1);
    }
  }
  for (const key of ['items', 'additionalProperties']) schemaTexts(schema[key], `${where}.${key}`, out, depth + 1);
  for (const key of ['anyOf', 'oneOf', 'allOf'])
    if (Array.isArray(schema[key])) (schema[key] as unknown[]).forEach((part, at) => schemaTexts(part, `${where}.${key}[${at}]`, out, depth + 1));
}

const text = (item: JsonObject, key: string, out: Told[], name = false) => {
  if (typeof item[key] === 'string') out.push({ where: key, text: item[key] as string, ...(name ? { name } : {}) });
};

/** The listed items of a tools/list, prompts/list or resources/list result, with what each tells the model. */
export function listedItems(method: string | undefined, result: unknown): Listed[] {
  const field = method === 'tools/list' ? 'tools' : method === 'prompts/list' ? 'prompts' : method === 'resources/list' ? 'resources' : undefined;
  const items = field && isObject(result) ? result[field] : undefined;
  if (!Array.isArray(items)) return [];
  const kind = field === 'tools' ? 'tool' : field === 'prompts' ? 'prompt' : 'resource';
  return items.filter(isObject).map((item) => {
    const told: Told[] = [];
    text(item, 'name', told, true);
    text(item, 'title', told);
    text(item, 'description', told);
    if (isObject(item.annotations) && typeof item.annotations.title === 'string') told.push({ where: 'annotations.title', text: item.annotations.title });
    schemaTexts(item.inputSchema, 'inputSchema', told);
    schemaTexts(item.outputSchema, 'outputSchema', told);
    const args = Array.isArray(item.arguments) ? item.arguments.filter(isObject) : [];
    args.forEach((arg, at) => {
      if (typeof arg.name === 'string') told.push({ where: `arguments[${at}].name`, text: arg.name, name: true });
      if (typeof arg.description === 'string') told.push({ where: `arguments[${at}].description`, text: arg.description });
    });
    const argumentNames = new Set([
      ...(isObject(item.inputSchema) && isObject(item.inputSchema.properties) ? Object.keys(item.inputSchema.properties) : []),
      ...args.map((arg) => arg.name).filter((name): name is string => typeof name === 'string'),
    ]);
    const name = typeof item.name === 'string' ? item.name : typeof item.uri === 'string' ? item.uri : '?';
    return { kind, name, told, ...(typeof item.description === 'string' ? { description: item.description } : {}), argumentNames };
  });
}

/** The texts of a tool result the model reads: its text content and embedded text resources. */
export function resultTexts(result: unknown): string[] {
  if (!isObject(result) || !Array.isArray(result.content)) return [];
  return result.content.filter(isObject).flatMap((item) => {
    if (typeof item.text === 'string') return [item.text];
    if (isObject(item.resource) && typeof item.resource.text === 'string') return [item.resource.text];
    return [];
  });
}
