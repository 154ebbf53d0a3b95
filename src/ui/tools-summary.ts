import { fieldOf } from '../record/entry-fields.js';
import { summarizeLatency } from '../review/percentiles.js';
import type { ViewState } from './state.js';

/** One tool in the tools summary: its calls, and what it costs a model's context. */
export interface ToolFigures {
  name: string;
  calls: number;
  errors: number;
  p50?: number;
  p95?: number;
  /** Its definition (from tools/list) as JSON, in bytes; the largest a session listed. */
  definitionBytes?: number;
  /** Its results, in bytes on the wire: all of them, and the largest. */
  resultBytes: number;
  largestResult: number;
}

/** The tools of the sessions in view (one, or all), from the rows the stream shows. */
export function toolsSummary(state: ViewState): ToolFigures[] {
  const tools = new Map<string, ToolFigures & { latencies: number[] }>();
  const figures = (name: string) => {
    let tool = tools.get(name);
    if (!tool) tools.set(name, (tool = { name, calls: 0, errors: 0, resultBytes: 0, largestResult: 0, latencies: [] }));
    return tool;
  };
  for (const session of state.sessions) {
    if (state.scope !== undefined && session.key !== state.scope) continue;
    for (const [name, bytes] of session.toolBytes) {
      const tool = figures(name);
      tool.definitionBytes = Math.max(tool.definitionBytes ?? 0, bytes);
    }
  }
  // From the log's index (one reused object for all); an entry it holds inexactly is read again.
  const scratch: Record<string, unknown> = {};
  const { log } = state;
  for (const index of state.visible) {
    const entry = log.isExact(index) ? log.brief(index, scratch) : log.row(index, state.load).entry;
    const name = fieldOf(entry, 'tool');
    if (fieldOf(entry, 'method') !== 'tools/call' || typeof name !== 'string') continue;
    const tool = figures(name);
    if (log.isCall(index)) tool.calls++;
    if (entry.kind === 'tool-error' || entry.kind === 'protocol-error') tool.errors++;
    if (entry.kind === 'response' || entry.kind === 'tool-error') {
      const size = fieldOf(entry, 'bytes');
      const bytes = typeof size === 'number' ? size : 0;
      tool.resultBytes += bytes;
      tool.largestResult = Math.max(tool.largestResult, bytes);
    }
    const latencyMs = fieldOf(entry, 'latencyMs');
    if (typeof latencyMs === 'number' && entry.kind !== 'request') tool.latencies.push(latencyMs);
  }
  return [...tools.values()]
    .map(({ latencies, ...tool }) => {
      const latency = summarizeLatency(latencies);
      return latency ? { ...tool, p50: latency.p50, p95: latency.p95 } : tool;
    })
    .sort((a, b) => b.calls - a.calls || a.name.localeCompare(b.name));
}
