import { printableJson } from '../render/sanitize.js';
import type { CheckSummary } from './engine.js';
import type { Level, RuleDefinition } from './types.js';

const sarifLevel = { error: 'error', warn: 'warning', off: 'none' } as const satisfies Record<Level, string>;

/** A path as a SARIF artifact URI reference: forward slashes, percent-encoded. */
function artifactUri(file: string): string {
  return encodeURI(file.replace(/\\/g, '/'));
}

/** SARIF 2.1.0, as code-scanning tools read it: one run, the rules that ran, one result per finding. */
export function formatSarif(summary: CheckSummary, file: string, active: { rule: RuleDefinition; level: Level }[], version: string): string {
  const index = new Map(active.map(({ rule }, at) => [rule.id, at]));
  const log = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'mcp-spy',
            semanticVersion: version,
            rules: active.map(({ rule, level }) => ({
              id: rule.id,
              shortDescription: { text: rule.summary },
              help: { text: `Breaks it:\n${rule.bad}\n\nDoes not:\n${rule.good}` },
              ...(rule.source ? { helpUri: rule.source.url } : {}),
              defaultConfiguration: { level: sarifLevel[level] },
            })),
          },
        },
        artifacts: [{ location: { uri: artifactUri(file) } }],
        results: summary.findings.map((finding) => ({
          ruleId: finding.rule,
          ...(index.has(finding.rule) ? { ruleIndex: index.get(finding.rule) } : {}),
          level: sarifLevel[finding.level],
          message: { text: finding.message },
          locations: [
            {
              physicalLocation: {
                artifactLocation: { uri: artifactUri(file), index: 0 },
                ...(finding.lineNo !== undefined ? { region: { startLine: finding.lineNo } } : {}),
              },
              ...(finding.seq !== undefined ? { logicalLocations: [{ name: `seq ${finding.seq}`, kind: 'object' }] } : {}),
            },
          ],
          ...(finding.session ? { properties: { session: finding.session, seq: finding.seq } } : {}),
        })),
      },
    ],
  };
  return `${printableJson(log, 2)}\n`;
}
