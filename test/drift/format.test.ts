import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import Ajv04Module from 'ajv-draft-04';
import formatsModule from 'ajv-formats';
import { parse as parseJunit } from 'junit2json';
import { describe, expect, it } from 'vitest';
import { change } from '../../src/drift/change.js';
import type { DiffReport } from '../../src/drift/diff.js';
import { formatDiff } from '../../src/drift/format.js';

const require = createRequire(import.meta.url);
const Ajv04 = Ajv04Module.default ?? Ajv04Module;
// The schema's language-tag pattern is not valid as a unicode regular expression.
const ajv = new Ajv04({ strict: false, allErrors: true, unicodeRegExp: false });
(formatsModule.default ?? formatsModule)(ajv);
const validateSarif = ajv.compile(JSON.parse(readFileSync(require.resolve('@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json'), 'utf8')));

/** Names from a hostile server: terminal escapes, a bidirectional override, markup, a table pipe. */
const hostile = 'x\u001b[2J\u202e</script><img src=x>|`';
const report: DiffReport = {
  before: 'a.jsonl',
  after: 'b.jsonl',
  compared: 1,
  unmatched: 0,
  changes: [
    change('breaking', 'tool', hostile, `required argument \`${hostile}\` added`),
    change('risky', 'tool', 'search', "description changed: the model's instructions changed"),
    change('compatible', 'server', hostile, `server info changed: notes 1.0.0 -> ${hostile} 1.0.0`),
  ],
};
const clean: DiffReport = { ...report, changes: [] };

describe('the formats of diff', () => {
  it('sarif: valid SARIF 2.1.0, with changes and without', () => {
    for (const item of [report, clean]) {
      const log = JSON.parse(formatDiff(item, 'sarif', 'breaking', '0.0.0'));
      expect(validateSarif(log), JSON.stringify(validateSarif.errors)).toBe(true);
    }
    const log = JSON.parse(formatDiff(report, 'sarif', 'breaking', '0.0.0'));
    expect(log.runs[0].results.map((result: { ruleId: string; level: string }) => `${result.ruleId} ${result.level}`)).toEqual([
      'breaking-change error',
      'risky-change warning',
      'compatible-change warning',
    ]);
  });

  it('junit: XML a reporter parses, failing only the classes of --fail-on', async () => {
    const xmlText = formatDiff(report, 'junit', 'risky', '0.0.0');
    const parsed = (await parseJunit(xmlText)) as { name?: string; tests?: number; failures?: number };
    expect([parsed.name, parsed.tests, parsed.failures]).toEqual(['mcp-spy diff', 3, 2]);
    // A CI page names the diff as a diff, not as a check of the recording.
    expect(xmlText).toContain('classname="mcp-spy.diff.breaking-change"');
    const none = (await parseJunit(formatDiff(clean, 'junit', 'any', '0.0.0'))) as { failures?: number };
    expect(none.failures).toBe(0);
  });

  it('text and markdown: no terminal control reaches the output, and wire text stays text in a pull request', () => {
    for (const format of ['text', 'markdown', 'json', 'junit', 'sarif'] as const) {
      expect(formatDiff(report, format, 'any', '0.0.0'), format).not.toMatch(/[\u001b\u202e]/);
    }
    const markdown = formatDiff(report, 'markdown', 'any', '0.0.0');
    // Outside code spans (where markup is shown as it is), no markup from the wire.
    expect(markdown.replace(/`[^`\n]*`/g, '')).not.toMatch(/<img|<\/script/);
    const rows = markdown.split('\n').filter((line) => line.startsWith('| **'));
    expect(rows).toHaveLength(3);
    // Every row keeps its four cells: the pipe from the wire is escaped.
    for (const row of rows) expect(row.split(/(?<!\\)\|/).length - 2).toBe(4);
    expect(rows[2]).toContain('server info changed: notes 1.0.0 -&gt; x\\u001b[2J\\u202e&lt;/script&gt;&lt;img src=x&gt;\\|` 1.0.0');
  });
});
