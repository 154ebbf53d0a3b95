import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderRulesDoc } from '../../src/check/rules-doc.js';
import { rules } from '../../src/check/rules.js';

describe('the list of check rules in docs/rules.md', () => {
  it('is the one generated from the rule table (npm run docs:rules)', () => {
    const readme = readFileSync(new URL('../../docs/rules.md', import.meta.url), 'utf8');
    expect(readme).toContain(renderRulesDoc());
  });

  it('has an entry with both examples for every rule', () => {
    const doc = renderRulesDoc();
    for (const rule of rules) {
      expect(doc).toContain(`#### \`${rule.id}\`\n\n**${rule.severity}**: ${rule.summary}.\n\nBreaks it:\n\n    ${rule.bad.split('\n')[0]}`);
    }
  });
});
