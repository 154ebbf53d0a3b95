import { createHarImport } from '../export/har-import.js';
import { recordLineOf } from '../record/record-line.js';
import { exitCodes } from './errors.js';
import { readHarEntries } from './har-input.js';
import { openOutputStream } from './write-output.js';

export interface ImportOptions {
  output?: string;
  /** false with --no-default-redact: the HAR's secrets are recorded as it has them. */
  defaultRedact?: boolean;
}

/**
 * `mcp-spy import FILE.har`: a HAR as a record (wire.jsonl), to a file or stdout. The HAR is read
 * entry by entry and the record written line by line: the frames wait on disk to be put in the
 * order of their times (export/har-spill).
 */
export async function runImport(file: string, options: ImportOptions): Promise<number> {
  const har = createHarImport({ defaultRedact: options.defaultRedact !== false });
  let count = 0;
  try {
    await readHarEntries(file, (entry) => har.add(entry));
    const output = openOutputStream(options.output, { inputs: [file] });
    try {
      for (const entry of har.entries()) {
        await output.write(recordLineOf(entry));
        count++;
      }
    } finally {
      await output.end();
    }
  } finally {
    har.close();
  }
  process.stderr.write(`mcp-spy: ${count} entr${count === 1 ? 'y' : 'ies'} imported from ${file}\n`);
  return exitCodes.ok;
}
