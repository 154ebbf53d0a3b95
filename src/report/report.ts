import { basename } from 'node:path';
import type { RecordEntry } from '../record/schema.js';
import { loadRecording } from '../replay/load.js';
import { collectRecording } from './collect.js';
import type { ReportLimitOptions } from './limits.js';
import { compareRecordings } from './compare.js';
import type { ReportData } from './report-types.js';

export interface ReportInput {
  /** The path as the user gave it. */
  path: string;
  entries: AsyncIterable<{ entry: RecordEntry; lineNo: number }>;
}

export interface BuildReportOptions {
  spy: string;
  limits: ReportLimitOptions;
  /** For two recordings: the paths left out of comparing answers (replay's ignores). */
  ignores: readonly string[];
  maxLine?: number;
}

/**
 * What a report page shows: one recording, or two with their answers and tools compared as `replay`
 * compares them (the second is the one drawn first; the page switches between them).
 */
export async function buildReport(inputs: ReportInput[], options: BuildReportOptions): Promise<ReportData> {
  const recordings = [];
  for (const input of inputs) recordings.push(await collectRecording(basename(input.path), input.entries, options.limits));
  const data: ReportData = { spy: options.spy, recordings };
  if (inputs.length === 2) {
    const load = (path: string) => loadRecording(path, options.maxLine !== undefined ? { maxLine: options.maxLine } : {});
    const [before, after] = [await load(inputs[0]!.path), await load(inputs[1]!.path)];
    data.comparison = compareRecordings(before, after, [recordings[0]!.inventory, recordings[1]!.inventory], options.ignores);
  }
  return data;
}
