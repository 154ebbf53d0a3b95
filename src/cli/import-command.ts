import { readFileSync } from 'node:fs';
import { harProblem, harToEntries } from '../export/har-import.js';
import { SpyError, exitCodes } from './errors.js';
import { writeOutput } from './write-output.js';
import { recordLineOf } from '../record/record-line.js';

export interface ImportOptions {
  output?: string;
}

function readHar(file: string): { log: { entries: unknown[] } } {
  let text: string;
  try {
    text = readFileSync(file === '-' ? 0 : file, 'utf8');
  } catch (error) {
    throw new SpyError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    throw new SpyError(`${file} is not a HAR file: not JSON (${(error as Error).message})`);
  }
  const problem = harProblem(value);
  if (problem) throw new SpyError(`${file} is ${problem}`);
  return value as { log: { entries: unknown[] } };
}

/** `mcp-spy import FILE.har`: a HAR as a record (wire.jsonl), to a file or stdout. */
export async function runImport(file: string, options: ImportOptions): Promise<number> {
  const entries = harToEntries(readHar(file));
  const text = entries.map(recordLineOf).join('');
  writeOutput(options.output, text);
  process.stderr.write(`mcp-spy: ${entries.length} entr${entries.length === 1 ? 'y' : 'ies'} imported from ${file}\n`);
  return exitCodes.ok;
}
