import { readFileSync, statSync } from 'node:fs';
import { harProblem, harToEntries } from '../export/har-import.js';
import { SpyError, exitCodes } from './errors.js';
import { writeOutput } from './write-output.js';
import { recordLineOf } from '../record/record-line.js';
import { openFailure } from '../record/reader.js';

export interface ImportOptions {
  output?: string;
}

/** A HAR is read whole, as one JSON text: past this it could not be held as one string. */
const maxHarBytes = 512 * 1024 * 1024;

function readHar(file: string): { log: { entries: unknown[] } } {
  let text: string;
  try {
    // Refused before it is read: reading 600 MB only to fail costs a gigabyte of memory.
    const size = file === '-' ? 0 : statSync(file).size;
    if (size > maxHarBytes) throw new SpyError(`${file} is ${Math.round(size / 2 ** 20)} MiB: import reads a HAR whole, up to 512 MiB`);
    text = readFileSync(file === '-' ? 0 : file, 'utf8');
  } catch (error) {
    if (error instanceof SpyError) throw error;
    throw new SpyError(openFailure(file, error).message);
  }
  let value: unknown;
  try {
    value = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    if (looksLikeRecord(text)) throw new SpyError(`${file} is an mcp-spy record, not a HAR: view, check, replay and export read it as it is`);
    throw new SpyError(`${file} is not a HAR file: not JSON (${(error as Error).message})`);
  }
  const problem = harProblem(value);
  if (problem) throw new SpyError(`${file} is ${problem}`);
  return value as { log: { entries: unknown[] } };
}

/** A record (JSON Lines whose first line is an entry) given where a HAR is expected. */
function looksLikeRecord(text: string): boolean {
  try {
    const first: unknown = JSON.parse(text.slice(0, text.indexOf('\n')));
    return typeof first === 'object' && first !== null && 'seq' in first && 'kind' in first;
  } catch {
    return false;
  }
}

/** `mcp-spy import FILE.har`: a HAR as a record (wire.jsonl), to a file or stdout. */
export async function runImport(file: string, options: ImportOptions): Promise<number> {
  const entries = harToEntries(readHar(file));
  const text = entries.map(recordLineOf).join('');
  writeOutput(options.output, text, { inputs: [file] });
  process.stderr.write(`mcp-spy: ${entries.length} entr${entries.length === 1 ? 'y' : 'ies'} imported from ${file}\n`);
  return exitCodes.ok;
}
