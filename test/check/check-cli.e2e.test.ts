import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import Ajv04Module from 'ajv-draft-04';
import formatsModule from 'ajv-formats';
import { parse as parseJunit } from 'junit2json';
import { afterAll, describe, expect, it } from 'vitest';
import { rules } from '../../src/check/rules.js';
import { runBinSync, tempDir } from '../helpers/spy.js';

const temp = tempDir('mcp-spy-check-');
afterAll(() => temp.remove());

const byId = (id: string) => rules.find((rule) => rule.id === id)!;
// Two errors (duplicate id, stdout noise) and one warning (an undefined reserved error code).
const broken = temp.file(
  'broken.log',
  `${[byId('duplicate-id').bad, byId('stdout-noise').bad.replace(/"id":1/g, '"id":9'), byId('reserved-error-code').bad.replace(/"id":1/g, '"id":5')].join('\n')}\n`,
);
const clean = temp.file('clean.log', `${byId('duplicate-id').good}\n`);
const warningsOnly = temp.file('warn.log', `${byId('reserved-error-code').bad}\n`);

describe('check exit status and options', () => {
  it('exits 0 on a clean recording and says so', () => {
    const result = runBinSync(['check', clean]);
    expect(result.code).toBe(0);
    expect(result.text).toBe(`${clean}: clean (0 errors, 0 warnings in 4 entries)\n`);
  });

  it('exits 1 on findings at error level, one line each with file and line', () => {
    const result = runBinSync(['check', broken]);
    expect(result.code).toBe(1);
    expect(result.text).toContain(`${broken}:3: error duplicate-id: the request id was already used by the same sender in this session (ping #1)`);
    expect(result.text).toContain(`${broken}:6: error stdout-noise:`);
    expect(result.text).toContain(`${broken}:9: warning reserved-error-code:`);
    expect(result.text).toMatch(/2 errors, 1 warning in \d+ entries\n$/);
  });

  it('exits 0 when only warnings are found', () => {
    expect(runBinSync(['check', warningsOnly]).code).toBe(0);
  });

  it('takes --rule ID=off|warn|error', () => {
    const relaxed = runBinSync(['check', broken, '--rule', 'duplicate-id=off', '--rule', 'stdout-noise=warn', '--rule', 'reserved-error-code=error']);
    expect(relaxed.text).not.toContain('duplicate-id');
    expect(relaxed.text).toContain('warning stdout-noise');
    expect(relaxed.text).toContain('error reserved-error-code');
    expect(relaxed.code).toBe(1);
    expect(runBinSync(['check', broken, '--rule', 'duplicate-id=off,stdout-noise=off']).code).toBe(0);
  });

  it('gives json with the findings', () => {
    const report = JSON.parse(runBinSync(['check', broken, '--format', 'json']).text);
    expect(report).toMatchObject({ file: broken, errors: 2, warnings: 1 });
    expect(report.findings.map((finding: { rule: string }) => finding.rule)).toEqual(['duplicate-id', 'stdout-noise', 'reserved-error-code']);
  });
});

describe('SARIF 2.1.0', () => {
  const require = createRequire(import.meta.url);
  const schemaPath = require.resolve('@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json');
  const Ajv04 = Ajv04Module.default ?? Ajv04Module;
  // The schema's language-tag pattern is not valid as a unicode regular expression.
  const ajv = new Ajv04({ strict: false, allErrors: true, unicodeRegExp: false });
  (formatsModule.default ?? formatsModule)(ajv);
  const validate = ajv.compile(JSON.parse(readFileSync(schemaPath, 'utf8')));

  it('validates against the official SARIF 2.1.0 schema, with findings and clean', () => {
    expect(validate({ version: '2.1.0', runs: [{ tool: { driver: {} }, results: [] }] })).toBe(false);
    for (const file of [broken, clean]) {
      const result = runBinSync(['check', file, '--format', 'sarif']);
      const log = JSON.parse(result.text);
      const valid = validate(log);
      expect(validate.errors ?? [], file).toEqual([]);
      expect(valid).toBe(true);
    }
  });

  it('names rules and places results at their line', () => {
    const log = JSON.parse(runBinSync(['check', broken, '--format', 'sarif']).text);
    const run = log.runs[0];
    expect(run.tool.driver.name).toBe('mcp-spy');
    expect(run.tool.driver.rules.map((rule: { id: string }) => rule.id)).toEqual(rules.map((rule) => rule.id));
    const duplicate = run.results.find((result: { ruleId: string }) => result.ruleId === 'duplicate-id');
    expect(duplicate.level).toBe('error');
    expect(run.tool.driver.rules[duplicate.ruleIndex].id).toBe('duplicate-id');
    expect(duplicate.locations[0].physicalLocation.region.startLine).toBe(3);
    expect(run.results.find((result: { ruleId: string }) => result.ruleId === 'reserved-error-code').level).toBe('warning');
  });
});

describe('JUnit XML', () => {
  it('is read by a JUnit parser: one case per rule, failures for errors', async () => {
    const result = runBinSync(['check', broken, '--format', 'junit']);
    expect(result.code).toBe(1);
    const parsed = (await parseJunit(result.text)) as {
      tests?: number;
      failures?: number;
      testsuite?: { testcase?: { classname?: string; failure?: unknown[]; 'system-out'?: string[] }[] }[];
    };
    expect(parsed.tests).toBe(rules.length);
    expect(parsed.failures).toBe(2);
    const cases = parsed.testsuite![0]!.testcase!;
    expect(cases).toHaveLength(rules.length);
    const failed = cases.filter((testcase) => testcase.failure).map((testcase) => testcase.classname);
    expect(failed).toEqual(['mcp-spy.check.stdout-noise', 'mcp-spy.check.duplicate-id']);
    const warned = cases.find((testcase) => testcase.classname === 'mcp-spy.check.reserved-error-code')!;
    expect(warned['system-out']?.join('')).toContain('-32400');
  });

  it('is read by a JUnit parser when clean', async () => {
    const parsed = (await parseJunit(runBinSync(['check', clean, '--format', 'junit']).text)) as { failures?: number };
    expect(parsed.failures).toBe(0);
  });
});
