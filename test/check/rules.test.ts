import { afterAll, describe, expect, it } from 'vitest';
import { rules } from '../../src/check/rules.js';
import { checkFile } from '../helpers/recordings.js';
import { tempDir } from '../helpers/spy.js';

const temp = tempDir('mcp-spy-rules-');
afterAll(() => temp.remove());

describe('every rule, on the recordings of its README entry', () => {
  it('has unique ids, a one-line summary and both examples', () => {
    expect(new Set(rules.map((rule) => rule.id)).size).toBe(rules.length);
    for (const rule of rules) {
      expect(rule.summary).not.toContain('\n');
      expect(rule.bad.length).toBeGreaterThan(0);
      expect(rule.good.length).toBeGreaterThan(0);
    }
  });

  for (const rule of rules) {
    it(`${rule.id}: the bad recording breaks it`, async () => {
      const summary = await checkFile(temp.file(`${rule.id}.bad`, `${rule.bad}\n`), rule.options);
      expect(summary.findings.map((finding) => finding.rule)).toContain(rule.id);
      const mine = summary.findings.find((finding) => finding.rule === rule.id)!;
      expect(mine.level).toBe(rule.severity);
      expect(mine.lineNo).toBeGreaterThan(0);
    });
    it(`${rule.id}: the good recording is clean`, async () => {
      const summary = await checkFile(temp.file(`${rule.id}.good`, `${rule.good}\n`), rule.options);
      expect(summary.findings).toEqual([]);
    });
  }
});
