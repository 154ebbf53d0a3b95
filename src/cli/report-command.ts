import { spawn } from 'node:child_process';
import { basename, dirname, extname, join, resolve } from 'node:path';
import { sanitize } from '../render/sanitize.js';
import type { ReportLimitOptions } from '../report/limits.js';
import { reportHtml } from '../report/html.js';
import { buildReport } from '../report/report.js';
import { ignoresFor } from '../recording/ignore.js';
import { exitCodes, SpyError } from './errors.js';
import { recordingEntries } from './recording-input.js';
import { writeReportFile } from './report-file.js';
import { sameFile } from './write-output.js';
import { version } from './version.js';

export interface ReportCommandOptions extends ReportLimitOptions {
  output?: string;
  open?: boolean;
  strict?: boolean;
  maxLine?: number;
  ignore: string[];
  ignoreFile: boolean;
}

const stem = (file: string) => basename(file, extname(file));

/** Where the report goes unless told: beside the recording (wire.jsonl -> wire.html), or for two, beside the second. */
export function defaultOutput(files: string[]): string {
  if (files.includes('-')) throw new SpyError('a report of standard input needs a file to write: -o report.html');
  const last = files.at(-1)!;
  return join(dirname(last), files.length === 1 ? `${stem(last)}.html` : `${stem(files[0]!)}-vs-${stem(last)}.html`);
}

/** How long an opener that fails is waited for: xdg-open with no browser gives up at once. */
const openerGraceMs = 3000;

/**
 * The system's own way to open a file in the browser. A failure is said in one line, not fatal: the
 * report is written. An opener still running after the grace time has a browser; it is left to it.
 */
function openInBrowser(path: string): Promise<void> {
  const [command, ...args] =
    process.platform === 'darwin' ? ['open', path] : process.platform === 'win32' ? ['cmd', '/c', 'start', '""', path] : ['xdg-open', path];
  const say = (why: string) => process.stderr.write(`mcp-spy: cannot open a browser (${command}: ${sanitize(why)}); open ${sanitize(path)} yourself\n`);
  return new Promise((resolve) => {
    const child = spawn(command!, args, { detached: true, stdio: 'ignore' });
    const timer = setTimeout(() => {
      child.unref();
      resolve();
    }, openerGraceMs);
    const done = (why?: string) => {
      clearTimeout(timer);
      if (why !== undefined) say(why);
      resolve();
    };
    child.on('error', (error) => done((error as NodeJS.ErrnoException).code === 'ENOENT' ? 'not found' : error.message));
    child.on('exit', (code, signal) => done(code === 0 ? undefined : signal ? `ended by ${signal}` : `exit status ${code}`));
  });
}

/** `mcp-spy report FILE [FILE2]`: a single-file HTML report of a recording, or of two side by side. */
export async function runReport(files: string[], options: ReportCommandOptions): Promise<number> {
  if (files.length === 0 || files.length > 2) throw new SpyError('report takes one recording, or two to compare: mcp-spy report before.jsonl after.jsonl');
  if (files.length === 2 && files.includes('-')) throw new SpyError('two recordings to compare must be files, not standard input');
  if (options.output === '') throw new SpyError('-o needs a file name: -o report.html');
  if (files.length === 1 && options.ignore.length > 0)
    throw new SpyError('--ignore leaves paths out of comparing two recordings; give two: mcp-spy report before.jsonl after.jsonl --ignore PATH');
  const toStdout = options.output === '-';
  if (toStdout && options.open) throw new SpyError('--open needs the report in a file: -o report.html');
  const output = toStdout ? '-' : resolve(options.output ?? defaultOutput(files));
  // Under any name: a link to the recording is the recording.
  if (!toStdout && files.some((file) => file !== '-' && (resolve(file) === output || sameFile(file, output))))
    throw new SpyError(`the report would overwrite its recording ${output}; choose another file with -o`);
  const ignores = files.length === 2 ? ignoresFor(files[0]!, options.ignore, options.ignoreFile) : [];
  const inputs = files.map((path) => ({ path, entries: recordingEntries(path, { strict: options.strict, maxLine: options.maxLine }) }));
  const data = await buildReport(inputs, {
    spy: version,
    limits: { maxText: options.maxText, maxFrames: options.maxFrames },
    ignores,
    maxLine: options.maxLine,
  });
  const html = reportHtml(data);
  if (toStdout) {
    process.stdout.write(html);
    return exitCodes.ok;
  }
  writeReportFile(output, html, { named: options.output !== undefined });
  process.stdout.write(`${output}\n`);
  if (options.open) await openInBrowser(output);
  return exitCodes.ok;
}
