#!/usr/bin/env node
// Rewrites the list of `check` rules in docs/rules.md from the rule table (run after changing a rule).
import { readFileSync, writeFileSync } from 'node:fs';
import { withRulesDoc } from '../dist/check/rules-doc.js';

const path = new URL('../docs/rules.md', import.meta.url);
const before = readFileSync(path, 'utf8');
const after = withRulesDoc(before);
if (after === before) console.log('docs/rules.md: the rule list is up to date');
else {
  writeFileSync(path, after);
  console.log('docs/rules.md: rule list rewritten');
}
