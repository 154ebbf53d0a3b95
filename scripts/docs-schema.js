#!/usr/bin/env node
// Writes docs/record.schema.json from the record's one definition (run after changing an entry kind).
import { readFileSync, writeFileSync } from 'node:fs';
import { recordJsonSchema } from '../dist/record/entry-schema.js';

const path = new URL('../docs/record.schema.json', import.meta.url);
const after = `${JSON.stringify(recordJsonSchema(), null, 2)}\n`;
let before = '';
try {
  before = readFileSync(path, 'utf8');
} catch {
  // Written for the first time.
}
if (after === before) console.log('docs/record.schema.json: up to date');
else {
  writeFileSync(path, after);
  console.log('docs/record.schema.json: rewritten');
}
