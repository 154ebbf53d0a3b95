import { sep } from 'node:path';
import type { RecordEntry } from '../record/schema.js';
import { loadRecording } from '../recording/load.js';
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
 * How the page names each recording: its file name, or as many of its last path parts as tell two
 * apart (before/wire.jsonl and after/wire.jsonl, both named wire.jsonl by default).
 */
export function recordingNames(paths: readonly string[]): string[] {
  const parts = paths.map((path) => path.split(/[\\/]/).filter(Boolean));
  const longest = Math.max(...parts.map((list) => list.length));
  for (let count = 1; count <= longest; count++) {
    const names = parts.map((list) => list.slice(-count).join(sep));
    if (new Set(names).size === names.length) return names;
  }
  // The same file twice: its name, twice.
  return parts.map((list) => list.at(-1) ?? '-');
}

/**
 * What a report page shows: one recording, or two with their answers and tools compared as `replay`
 * compares them (the second is the one drawn first; the page switches between them).
 */
export async function buildReport(inputs: ReportInput[], options: BuildReportOptions): Promise<ReportData> {
  const recordings = [];
  const names = recordingNames(inputs.map((input) => input.path));
  for (const [index, input] of inputs.entries()) recordings.push(await collectRecording(names[index]!, input.entries, options.limits));
  const data: ReportData = { spy: options.spy, recordings };
  if (inputs.length === 2) {
    const load = (path: string) => loadRecording(path, options.maxLine !== undefined ? { maxLine: options.maxLine } : {});
    const [before, after] = [await load(inputs[0]!.path), await load(inputs[1]!.path)];
    data.comparison = compareRecordings(before, after, [recordings[0]!.inventory, recordings[1]!.inventory], options.ignores);
  }
  return data;
}
