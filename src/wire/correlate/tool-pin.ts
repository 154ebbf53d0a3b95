import { createHash } from 'node:crypto';
import { canonicalJson } from '../../protocol/canonical-json.js';
import { isObject } from '../../protocol/jsonrpc.js';

/** The name a server that gave none is pinned under. */
export const unnamedServer = '(unnamed)';

/** The pinned tools of each server, by server name then tool name: the hash of each definition. */
export type ToolPins = Readonly<Record<string, Readonly<Record<string, string>>>>;

/**
 * The hash of a tool's definition as the model sees it: every field but `_meta` (what a server says
 * about itself there changes with no meaning for the model), keys sorted so order does not count.
 */
export function toolHash(tool: unknown): string {
  const { _meta: _ignored, ...definition } = isObject(tool) ? tool : { value: tool };
  return `sha256:${createHash('sha256').update(canonicalJson(definition)).digest('hex')}`;
}

/** Pins of one server, or undefined when the pins name no such server (nothing to compare with). */
export function pinsOf(pins: ToolPins | undefined, server: string | undefined): Readonly<Record<string, string>> | undefined {
  if (!pins || server === undefined || !Object.hasOwn(pins, server)) return undefined;
  return pins[server];
}

/** How a listed tool stands against its pin: undefined when it matches. */
export function pinDrift(pinned: Readonly<Record<string, string>>, tool: unknown): 'changed' | 'not-pinned' | undefined {
  const name = isObject(tool) && typeof tool.name === 'string' ? tool.name : undefined;
  if (name === undefined) return undefined;
  if (!Object.hasOwn(pinned, name)) return 'not-pinned';
  return pinned[name] === toolHash(tool) ? undefined : 'changed';
}

/** What `tool-definition-changed` says of a pinned tool a whole list lacks, live and in `check`. */
export const pinGoneMessage = (name: string) => `tool ${name} is pinned in the baseline but the server no longer lists it`;

/** One pinned tool as a baseline file keeps it: the hash, and the definition for people to review. */
export interface PinnedTool {
  sha256: string;
  definition: Record<string, unknown>;
}

/** The tools of a baseline, by server name then tool name. */
export type BaselineTools = Readonly<Record<string, Readonly<Record<string, PinnedTool>>>>;

/** The hashes alone: what the live spy needs to compare. */
export function pinsFromBaseline(tools: BaselineTools): ToolPins {
  return Object.fromEntries(
    Object.entries(tools).map(([server, pinned]) => [server, Object.fromEntries(Object.entries(pinned).map(([name, tool]) => [name, tool.sha256]))]),
  );
}
