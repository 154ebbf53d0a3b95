// Commands given more files than they read: check, stats and view read each one (a verdict per
// file); the others refuse the extra ones in one line. Nothing is ignored without a word.
import { afterAll, describe, expect, it } from 'vitest';
import { rules } from '../../src/check/rules.js';
import { node, runBin, tempDir } from '../helpers/spy.js';

const temp = tempDir('mcp-spy-several-');
afterAll(() => temp.remove());

const byId = (id: string) => rules.find((rule) => rule.id === id)!;
const clean = temp.file('clean.log', `${byId('duplicate-id').good}\n`);
const broken = temp.file('broken.log', `${byId('stdout-noise').bad}\n`);
const missing = `${temp.dir}/missing.jsonl`;

describe('check reads every file given: a verdict each, the worst status', () => {
  it('fails on errors in the second file', async () => {
    const result = await runBin(['check', clean, broken]);
    expect(result.text).toContain(`${clean}: clean (0 errors, 0 warnings in 4 entries)\n`);
    expect(result.text).toContain(`${broken}:2: error stdout-noise:`);
    expect(result.text).toMatch(new RegExp(`${broken}: 1 error, 0 warnings in \\d+ entries\\n2 recordings checked: 1 with errors\\n$`));
    expect(result.code).toBe(1);
  });

  it('says a file it cannot read, still checks the others, and exits 2', async () => {
    const result = await runBin(['check', clean, missing]);
    expect(result.stderr).toBe(`mcp-spy: cannot read ${missing}: no such file\n`);
    expect(result.text).toBe(`${clean}: clean (0 errors, 0 warnings in 4 entries)\n1 recording checked: 0 with errors; 1 could not be read\n`);
    expect(result.code).toBe(2);
  });

  it('JUnit: a test suite per file; SARIF: one run, an artifact per file; JSON: an array', async () => {
    const junit = await runBin(['check', clean, broken, '--format', 'junit']);
    expect(junit.text.match(/<testsuite /g)).toHaveLength(2);
    expect(junit.text).toContain(`<testsuite name="mcp-spy check ${broken}" tests="${rules.length}" failures="1"`);
    const sarif = JSON.parse((await runBin(['check', clean, broken, '--format', 'sarif'])).text);
    expect(sarif.runs).toHaveLength(1);
    expect(sarif.runs[0].artifacts.map((artifact: { location: { uri: string } }) => artifact.location.uri)).toEqual([clean, broken]);
    expect(sarif.runs[0].results[0].locations[0].physicalLocation.artifactLocation).toEqual({ uri: broken, index: 1 });
    const json = JSON.parse((await runBin(['check', clean, broken, '--format', 'json'])).text);
    expect(json.map((file: { file: string; errors: number }) => [file.file, file.errors])).toEqual([
      [clean, 0],
      [broken, 1],
    ]);
  });
});

describe('stats and view read every file given', () => {
  it('stats: each recording under its name (a JSON array)', async () => {
    const text = await runBin(['stats', clean, broken]);
    expect(text.code).toBe(0);
    expect(text.text).toMatch(new RegExp(`^${clean}: 4 entries`));
    expect(text.text).toContain(`\n${broken}: `);
    const json = JSON.parse((await runBin(['stats', clean, broken, '--format', 'json'])).text);
    expect(json.map((stats: { file: string; entries: number }) => [stats.file, stats.entries])).toEqual([
      [clean, 4],
      [broken, 3],
    ]);
  });

  it('view: each recording after a line naming it; a missing one fails', async () => {
    const result = await runBin(['view', clean, missing, broken]);
    expect(result.text).toMatch(new RegExp(`^==> ${clean} <==\\n(.*\\n){4}==> ${missing} <==\\n==> ${broken} <==\\n`));
    expect(result.stderr).toBe(`mcp-spy: cannot read ${missing}: no such file\n`);
    expect(result.code).toBe(2);
    const one = await runBin(['view', clean, missing]);
    expect(one.code).toBe(2);
  });

  it('view --follow takes one file', async () => {
    const result = await runBin(['view', '--follow', clean, broken]);
    expect(result.stderr).toBe('mcp-spy: --follow follows one recording, not 2: give one file\n');
    expect(result.code).toBe(2);
  });
});

describe('the commands that read one recording refuse more: one line, exit 2, nothing on stdout', () => {
  it.each([
    ['baseline', ['baseline', clean, broken], 'mcp-spy baseline: too many arguments: it takes one argument, not 2 (see mcp-spy baseline --help)\n'],
    ['mock', ['mock', clean, broken], 'mcp-spy mock: too many arguments: it takes one argument, not 2 (see mcp-spy mock --help)\n'],
    ['export har', ['export', 'har', clean, broken], 'mcp-spy export har: too many arguments: it takes one argument, not 2 (see mcp-spy export har --help)\n'],
    [
      'export otlp',
      ['export', 'otlp', clean, broken],
      'mcp-spy export otlp: too many arguments: it takes one argument, not 2 (see mcp-spy export otlp --help)\n',
    ],
    [
      'diff',
      ['diff', clean, clean, broken],
      'mcp-spy diff: too many arguments: it takes 2 arguments, not 3; a server command goes after -- (see mcp-spy diff --help)\n',
    ],
    [
      'replay',
      ['replay', clean, broken, '--', node, '-e', ''],
      'mcp-spy replay: too many arguments: it takes one argument, not 2; a server command goes after -- (see mcp-spy replay --help)\n',
    ],
  ])('%s', async (_name, args, line) => {
    const result = await runBin(args);
    expect(result.stderr).toBe(line);
    expect(result.text).toBe('');
    expect(result.code).toBe(2);
  });
});
