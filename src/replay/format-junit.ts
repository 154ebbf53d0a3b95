import { xmlText as xml } from '../render/xml.js';
import { previewJson } from '../recording/json.js';
import type { ReplayItem, ReplayResult } from './result.js';

function testName(item: ReplayItem): string {
  const seq = item.seq !== undefined ? `#${item.seq} ` : '';
  return `${seq}${item.method}${item.name ? ` ${item.name}` : ''}${item.kind === 'response' ? '' : ` [${item.kind}]`}`;
}

function failureOf(item: ReplayItem): string {
  if (item.status === 'same') return '';
  const body = item.diff ? item.diff.map((entry) => `${entry.path}: ${previewJson(entry.recorded)} -> ${previewJson(entry.actual)}`) : [item.reason ?? ''];
  return `<failure type="${item.status}" message="${xml(`${item.status}${item.reason ? `: ${item.reason}` : ''}`)}">${body.map(xml).join('\n')}</failure>`;
}

/** JUnit XML: a test suite per session, a test case per compared message. */
export function formatJunit(result: ReplayResult): string {
  const suites = result.sessions.map((session) => {
    const failures = session.items.filter((item) => item.status !== 'same').length;
    const cases = session.items.map(
      (item) => `    <testcase classname="mcp-spy.replay.${xml(session.session)}" name="${xml(testName(item))}">${failureOf(item)}</testcase>`,
    );
    return [`  <testsuite name="replay ${xml(session.session)}" tests="${session.items.length}" failures="${failures}">`, ...cases, '  </testsuite>'].join(
      '\n',
    );
  });
  const total = result.counts.same + result.counts.changed + result.counts.missing + result.counts.extra;
  const failed = total - result.counts.same;
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="mcp-spy replay" tests="${total}" failures="${failed}" time="${(result.durationMs / 1000).toFixed(3)}">\n${suites.join('\n')}\n</testsuites>\n`;
}
