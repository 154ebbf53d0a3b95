import { isObject, pick, type JsonObject } from '../protocol/jsonrpc.js';
import type { FrameEntry } from '../record/schema.js';
import { c2s, lines, s2c } from './examples.js';
import { compileSchema, describeSchemaErrors } from './json-schema.js';
import type { EntryContext, RuleFamily, SessionState } from './types.js';

const echoTool = { name: 'echo', inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } };
const countTool = {
  name: 'count',
  inputSchema: { type: 'object' },
  outputSchema: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] },
};
const listed = (...tools: object[]) => [c2s({ id: 1, method: 'tools/list' }), s2c({ id: 1, result: { tools } })];
const call = (name: string, args: object, result: object) => [c2s({ id: 2, method: 'tools/call', params: { name, arguments: args } }), s2c({ id: 2, result })];
const text = (value: string) => ({ content: [{ type: 'text', text: value }] });

/** Compiles a tool's schema, reporting once per session a schema the validator cannot use. */
function schemaOf(tool: JsonObject, key: 'inputSchema' | 'outputSchema', context: EntryContext) {
  const schema = tool[key];
  if (!isObject(schema)) return undefined;
  const compiled = compileSchema(schema);
  if (compiled.ok) return compiled.validate;
  const seen = `${String(tool.name)}|${key}`;
  if (!context.state.reported.has(seen)) {
    context.state.reported.add(seen);
    context.report('tool-schema-invalid', `tool ${String(tool.name)}: its ${key} is not a usable JSON Schema: ${compiled.message}`);
  }
  return undefined;
}

function checkCall(context: EntryContext, tool: JsonObject) {
  const validate = schemaOf(tool, 'inputSchema', context);
  const args = pick(context.message, 'params', 'arguments') ?? {};
  if (validate && !validate(args)) {
    context.report('tool-arguments-schema', `arguments of tool ${String(tool.name)} do not match its inputSchema: ${describeSchemaErrors(validate)}`);
  }
}

function checkResult(context: EntryContext<FrameEntry>, tool: JsonObject | undefined) {
  const result = pick(context.message, 'result');
  if (!isObject(result)) return;
  if (typeof result.resultType === 'string' && result.resultType !== 'complete') return;
  if ('task' in result && !('content' in result)) return;
  const name = String(context.entry.tool ?? '?');
  if (!Array.isArray(result.content)) context.report('tool-result-no-content', `the result of tool ${name} has no content array`);
  if (!tool || result.isError === true) return;
  const validate = schemaOf(tool, 'outputSchema', context);
  if (!validate) return;
  if (!('structuredContent' in result)) {
    context.report('tool-output-schema', `tool ${name} declares an outputSchema but its result has no structuredContent`);
  } else if (!validate(result.structuredContent)) {
    context.report('tool-output-schema', `structuredContent of tool ${name} does not match its outputSchema: ${describeSchemaErrors(validate)}`);
  }
}

/** Tool calls against the tools the server listed in the same session, before the call or after it (on stateless HTTP, in any exchange). */
export const toolRules: RuleFamily = {
  rules: [
    {
      id: 'tool-arguments-schema',
      severity: 'error',
      summary: "tools/call arguments that do not match the tool's inputSchema from tools/list",
      bad: lines(listed(echoTool), call('echo', { message: 'hi' }, { ...text('text is required'), isError: true })),
      good: lines(listed(echoTool), call('echo', { text: 'hi' }, text('hi'))),
    },
    {
      id: 'tool-output-schema',
      severity: 'error',
      summary: "a tool result whose structuredContent is missing or does not match the tool's outputSchema",
      bad: lines(listed(countTool), call('count', {}, { ...text('{"n":"three"}'), structuredContent: { n: 'three' } })),
      good: lines(listed(countTool), call('count', {}, { ...text('{"n":3}'), structuredContent: { n: 3 } })),
    },
    {
      id: 'tool-result-no-content',
      severity: 'error',
      summary: 'a tools/call result without a content array',
      bad: lines(call('echo', { text: 'hi' }, { structuredContent: { text: 'hi' } })),
      good: lines(call('echo', { text: 'hi' }, { ...text('hi'), structuredContent: { text: 'hi' } })),
    },
    {
      id: 'tool-schema-invalid',
      severity: 'warn',
      summary: "a tool's inputSchema or outputSchema is not a JSON Schema a validator can use",
      bad: lines(listed({ name: 'echo', inputSchema: { type: 'object', properties: { text: { type: 'str' } } } }), call('echo', { text: 'hi' }, text('hi'))),
      good: lines(listed(echoTool), call('echo', { text: 'hi' }, text('hi'))),
    },
  ],
  frame(context) {
    const { entry, state } = context;
    if (entry.method !== 'tools/call') return;
    const tool = toolOf(state, entry.tool);
    if (entry.kind === 'request' && tool) checkCall(context, tool);
    else if (entry.kind === 'request' && typeof entry.tool === 'string') {
      // A call sent before the tool list came (a client need not wait for it): checked at the end.
      state.unlistedCalls ??= [];
      if (state.unlistedCalls.length < maxUnlistedCalls) state.unlistedCalls.push(context);
    }
    if (entry.kind === 'response' || entry.kind === 'tool-error') checkResult(context, tool);
  },
  end({ state }) {
    for (const call of state.unlistedCalls ?? []) {
      const tool = toolOf(state, call.entry.tool);
      if (tool) checkCall(call, tool);
    }
  },
};

/** The tool the session listed by that name (on stateless HTTP, an earlier exchange listed). */
function toolOf(state: SessionState, name: unknown): JsonObject | undefined {
  return typeof name === 'string' ? (state.facts.tools.get(name) ?? state.serverTools?.get(name)) : undefined;
}

/** How many early calls a session keeps for the end: one whose server never lists its tools keeps no more. */
const maxUnlistedCalls = 1000;
