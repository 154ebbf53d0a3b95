import { printableJson } from '../render/sanitize.js';
import type { CheckSummary } from './engine.js';
import type { CheckedFile } from './format-junit.js';
import type { Level, RuleDefinition } from './types.js';

const sarifLevel = { error: 'error', warn: 'warning', off: 'none' } as const satisfies Record<Level, string>;

/** A path as a SARIF artifact URI reference: forward slashes, percent-encoded. */
function artifactUri(file: string): string {
  return encodeURI(file.replace(/\\/g, '/'));
}

/**
 * SARIF 2.1.0, as code-scanning tools read it: one run (code scanning refuses several runs of one
 * tool in an upload), the rules that ran, an artifact per recording, one result per finding.
 */
export function formatSarifFiles(files: CheckedFile[], active: { rule: RuleDefinition; level: Level }[], version: string): string {
  const index = new Map(active.map(({ rule }, at) => [rule.id, at]));
  const results = files.flatMap(({ file, summary }, artifact) =>
    summary.findings.map((finding) => ({
      ruleId: finding.rule,
      ...(index.has(finding.rule) ? { ruleIndex: index.get(finding.rule) } : {}),
      level: sarifLevel[finding.level],
      message: { text: finding.message },
      locations: [
        {
          physicalLocation: {
            artifactLocation: { uri: artifactUri(file), index: artifact },
            ...(finding.lineNo !== undefined ? { region: { startLine: finding.lineNo } } : {}),
          },
          ...(finding.seq !== undefined ? { logicalLocations: [{ name: `seq ${finding.seq}`, kind: 'object' }] } : {}),
        },
      ],
      ...(finding.session ? { properties: { session: finding.session, seq: finding.seq } } : {}),
    })),
  );
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
        artifacts: files.map(({ file }) => ({ location: { uri: artifactUri(file) } })),
        results,
      },
    ],
  };
  return `${printableJson(log, 2)}\n`;
}

/** SARIF of one recording. */
export function formatSarif(summary: CheckSummary, file: string, active: { rule: RuleDefinition; level: Level }[], version: string): string {
  return formatSarifFiles([{ file, summary }], active, version);
}
