import { isObject } from '../protocol/jsonrpc.js';
import { tableOf } from '../protocol/own-table.js';
import { messageOf } from '../record/frame-message.js';
import type { FrameEntry } from '../record/schema.js';

/**
 * What a tool costs a model's context, in bytes of JSON (UTF-8): its definition, which every
 * conversation that lists the tools carries, and its results, which each call adds.
 */
export interface ToolSize {
  /** The definition as the server last listed it (name, description, schemas, annotations); absent when never listed. */
  definitionBytes?: number;
  /** Results seen (tool errors too). */
  results: number;
  /** All results together (each call's `result` member). */
  resultBytes: number;
  /** The largest result. */
  maxResultBytes: number;
}

const bytesOf = (value: unknown) => Buffer.byteLength(JSON.stringify(value), 'utf8');

/** Gathers the sizes of tool definitions (`tools/list` answers) and results (`tools/call` answers), entry by entry. */
export function createToolSizes() {
  const sizes = new Map<string, ToolSize>();
  const sizeOf = (name: string) => {
    let size = sizes.get(name);
    if (!size) sizes.set(name, (size = { results: 0, resultBytes: 0, maxResultBytes: 0 }));
    return size;
  };
  return {
    add(entry: FrameEntry) {
      if (entry.dir !== 's2c' || (entry.kind !== 'response' && entry.kind !== 'tool-error')) return;
      const message = messageOf(entry);
      const result = isObject(message) ? message.result : undefined;
      if (entry.method === 'tools/list' && isObject(result) && Array.isArray(result.tools)) {
        for (const tool of result.tools) if (isObject(tool) && typeof tool.name === 'string') sizeOf(tool.name).definitionBytes = bytesOf(tool);
      } else if (entry.method === 'tools/call' && typeof entry.tool === 'string' && result !== undefined) {
        const size = sizeOf(entry.tool);
        const bytes = bytesOf(result);
        size.results++;
        size.resultBytes += bytes;
        size.maxResultBytes = Math.max(size.maxResultBytes, bytes);
      }
    },
    /** By tool name, sorted. */
    result(): Record<string, ToolSize> {
      return tableOf([...sizes].sort(([a], [b]) => a.localeCompare(b)));
    },
  };
}
