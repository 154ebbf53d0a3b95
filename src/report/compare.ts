import { diffMessages } from '../recording/compare.js';
import { buildExchanges, type RecordedExchange } from '../recording/exchanges.js';
import { canonicalJson } from '../recording/json.js';
import type { Recording } from '../recording/load.js';
import { createMatcher } from '../recording/matcher.js';
import type { ReportComparison, ReportPair, ReportTool, ReportToolPair } from './report-types.js';

/** The client's requests of a recording that were answered, with their answers, in recorded order. */
function answeredRequests(recording: Recording): RecordedExchange[] {
  return recording.sessions
    .filter((session) => !session.probe)
    .flatMap((session) => buildExchanges(session).client)
    .filter((exchange) => exchange.request.kind === 'request');
}

const nameOf = (exchange: RecordedExchange) => {
  const { tool, prompt, uri } = exchange.request.entry;
  const name = tool ?? prompt ?? uri;
  return typeof name === 'string' ? name : undefined;
};

const sideOf = (exchange: RecordedExchange) => ({
  seq: exchange.request.seq,
  session: exchange.session,
  ...(exchange.response ? { answer: exchange.response.raw } : {}),
});

/**
 * Pairs the requests of two recordings as `mock` and `replay` do (method and params, ids and the
 * ignored paths aside, in recorded order, the nearest of the method when none is equal) and diffs
 * their answers as `replay` does.
 */
export function compareAnswers(before: Recording, after: Recording, ignores: readonly string[]): ReportPair[] {
  const matcher = createMatcher(answeredRequests(before), { ignores, reuse: false });
  const pairs: ReportPair[] = [];
  for (const exchange of answeredRequests(after)) {
    const method = exchange.request.method ?? '';
    const name = nameOf(exchange);
    const match = matcher.match(method, exchange.request.message.params, true);
    if (!match.ok) {
      pairs.push({ method, ...(name ? { name } : {}), status: 'only-after', after: sideOf(exchange), diff: [] });
      continue;
    }
    const diff = diffMessages(match.exchange.response?.message, exchange.response?.message, ignores).map(({ path, change, recorded, actual }) => ({
      path,
      change,
      ...(recorded !== undefined ? { before: recorded } : {}),
      ...(actual !== undefined ? { after: actual } : {}),
    }));
    pairs.push({
      method,
      ...(name ? { name } : {}),
      status: diff.length === 0 ? 'same' : 'changed',
      before: sideOf(match.exchange),
      after: sideOf(exchange),
      diff,
    });
  }
  for (const exchange of matcher.unused()) {
    const name = nameOf(exchange);
    pairs.push({ method: exchange.request.method ?? '', ...(name ? { name } : {}), status: 'only-before', before: sideOf(exchange), diff: [] });
  }
  return pairs;
}

const toolKey = (tool: ReportTool) => canonicalJson({ description: tool.description, inputSchema: tool.inputSchema });

/** The tools of both recordings by name: in one only, the same, or with a changed description or schema. */
export function compareTools(before: ReportTool[], after: ReportTool[]): ReportToolPair[] {
  const names = [...new Set([...before, ...after].map((tool) => tool.name))];
  return names.map((name) => {
    const left = before.find((tool) => tool.name === name);
    const right = after.find((tool) => tool.name === name);
    const status = !right ? 'only-before' : !left ? 'only-after' : toolKey(left) === toolKey(right) ? 'same' : 'changed';
    return { name, status, ...(left ? { before: left } : {}), ...(right ? { after: right } : {}) };
  });
}

export function compareRecordings(before: Recording, after: Recording, tools: [ReportTool[], ReportTool[]], ignores: readonly string[]): ReportComparison {
  return { ignores: [...ignores], pairs: compareAnswers(before, after, ignores), tools: compareTools(...tools) };
}
