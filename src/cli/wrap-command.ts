import { createInterface } from 'node:readline/promises';
import { createTwoFilesPatch } from 'diff';
import { clients, isClientId, type ClientFacts, type ClientId } from '../clients/client-table.js';
import { configTargets, type TargetChoice } from '../clients/config-targets.js';
import { spyProgram } from '../clients/spy-invocation.js';
import { changesFile, planWrapFiles, writeWrapFiles, type WrapWork } from '../clients/wrap-files.js';
import { withManifestLock } from '../clients/manifest-lock.js';
import { manifestPath, readManifest, writeManifest, type WrapManifest } from '../clients/wrap-manifest.js';
import { sessionsDirectory } from '../record/sessions-dir.js';
import { sanitize, visibleText } from '../render/sanitize.js';
import { exitCodes, SpyError } from './errors.js';
import { shellWord } from './invocation.js';

export interface WrapOptions {
  config?: string;
  format?: string;
  project?: string;
  server: string[];
  dryRun?: boolean;
  yes?: boolean;
  http?: boolean;
}

/** The client and files a wrap or unwrap is about, from its argument and options; bad use is an error. */
export function targetChoiceOf(client: string | undefined, options: Pick<WrapOptions, 'config' | 'format' | 'project'>): TargetChoice {
  const known = Object.keys(clients).join(', ');
  if (client !== undefined && !isClientId(client)) throw new SpyError(`unknown client '${client}': one of ${known}`);
  if (options.format !== undefined && !isClientId(options.format)) throw new SpyError(`unknown --format '${options.format}': one of ${known}`);
  if (options.config !== undefined && client === undefined && options.format === undefined) {
    throw new SpyError(`--config needs the client whose format the file has: --format ${known.replaceAll(', ', '|')}`);
  }
  if (options.format !== undefined && options.config === undefined) throw new SpyError('--format goes with --config FILE');
  return {
    ...(client !== undefined ? { client: client as ClientId } : {}),
    ...(options.config !== undefined ? { config: options.config } : {}),
    ...(options.format !== undefined ? { format: options.format as ClientId } : {}),
    ...(options.project !== undefined ? { project: options.project } : {}),
  };
}

/** The manifest, or one line and exit 2 when it cannot be read (it holds the originals: never started afresh over one). */
export function loadManifest(path: string): WrapManifest {
  const read = readManifest(path);
  if (!read.ok) throw new SpyError(`cannot use the record of wrapped entries: ${read.why}`);
  return read.manifest;
}

const out = (line: string) => process.stdout.write(`${line}\n`);

/** Each file and what happens to each of its entries. */
function printPlan(works: readonly WrapWork[], filtered: boolean): void {
  for (const work of works) {
    // With --server, a file without that entry is not about this wrap.
    if (filtered && !work.failure && work.plan!.notes.length === 0) continue;
    const title = (clients[work.target.places[0]!.client] as ClientFacts).title;
    out(`${sanitize(work.target.file)} (${title})`);
    if (work.failure) continue;
    if (work.plan!.notes.length === 0) out('  no servers');
    for (const note of work.plan!.notes) {
      out(`  ${note.changes ? '+' : '-'} ${sanitize(note.name)} (${note.place.scope}): ${sanitize(note.says)}${note.run ? ':' : ''}`);
      if (note.run) out(`      ${sanitize(note.run.map(shellWord).join(' '))}`);
    }
  }
}

/** The change as a unified diff, file by file. */
export function printDiff(file: string, before: string, after: string): void {
  // A config's names and values may hold what reorders a line on a terminal (U+202E): shown as escapes.
  process.stdout.write(visibleText(createTwoFilesPatch(file, file, before, after, undefined, undefined, { context: 3 })));
}

/** Asks on the terminal; anything but y or yes is no. */
async function confirm(question: string): Promise<boolean> {
  const prompt = createInterface({ input: process.stdin, output: process.stdout });
  try {
    return /^y(es)?$/i.test((await prompt.question(`${question} [y/N] `)).trim());
  } finally {
    prompt.close();
  }
}

/** `mcp-spy wrap [client]`: puts the spy in front of each stdio server of the client configs. */
export async function runWrap(client: string | undefined, options: WrapOptions): Promise<number> {
  const choice = targetChoiceOf(client, options);
  const { targets, looked } = configTargets(choice, process.env);
  if (targets.length === 0) {
    out(
      `no client config found; looked at:\n${looked.map((file) => `  ${sanitize(file)}`).join('\n')}\n(a file elsewhere: mcp-spy wrap --config FILE --format CLIENT)`,
    );
    return choice.config !== undefined ? exitCodes.badUse : exitCodes.ok;
  }
  const manifestFile = manifestPath(process.env);
  // A dry run writes nothing: it needs no lock.
  if (options.dryRun) return wrapWith(manifestFile, options, targets);
  const locked = await withManifestLock(manifestFile, () => wrapWith(manifestFile, options, targets));
  if (!locked.ok) throw new SpyError(locked.why);
  return locked.value;
}

/** The wrap itself, once the targets are known (and the manifest is held, unless it is a dry run). */
async function wrapWith(manifestFile: string, options: WrapOptions, targets: ReturnType<typeof configTargets>['targets']): Promise<number> {
  const manifest = loadManifest(manifestFile);
  const spy = spyProgram();
  // The entries name this very bin: from npx's cache it may be gone after npm cleans the cache.
  if (/[\\/]_npx[\\/]/.test(spy.bin))
    process.stderr.write(
      `mcp-spy: this mcp-spy runs from npx's cache (${sanitize(spy.bin)}), which npm may clean; the wrapped entries would then fail to start: install mcp-spy (npm install -g) and wrap from there\n`,
    );
  const works = planWrapFiles(targets, { spy, servers: options.server, http: options.http === true }, manifest);
  printPlan(works, options.server.length > 0);
  const failed = works.filter((work) => work.failure);
  for (const work of failed) process.stderr.write(`mcp-spy: cannot wrap ${sanitize(work.target.file)}: ${sanitize(work.failure!)}\n`);
  const changing = works.filter(changesFile);
  const failure = failed.length > 0 ? exitCodes.badUse : exitCodes.ok;
  if (options.server.length > 0 && !works.some((work) => work.plan?.notes.length)) {
    // Of a file that could not be read nothing is known: its line above says why, and it may hold the server.
    const read = works.length - failed.length;
    if (read > 0)
      process.stderr.write(
        `mcp-spy: no server named ${options.server.join(', ')} in ${failed.length > 0 ? `the ${read === 1 ? 'file' : 'files'} that could be read` : 'these files'}\n`,
      );
    return exitCodes.badUse;
  }
  if (options.dryRun) {
    for (const work of changing) printDiff(work.target.file, work.plan!.before, work.plan!.after);
    if (changing.length > 0) out('(dry run: nothing written)');
    return failure;
  }
  if (changing.length === 0) {
    out('nothing to wrap');
    return failure;
  }
  const count = changing.reduce((sum, work) => sum + work.plan!.wrapped.length, 0);
  const question = `wrap ${count} server${count === 1 ? '' : 's'} in ${changing.length} file${changing.length === 1 ? '' : 's'}?`;
  if (!options.yes) {
    if (!process.stdin.isTTY || !process.stdout.isTTY) {
      out(`nothing written: to ${question.slice(0, -1)}, run again with --yes (--dry-run shows the change as a diff)`);
      return exitCodes.findings;
    }
    if (!(await confirm(question))) {
      out('nothing written');
      return exitCodes.findings;
    }
  }
  return writeWraps(changing, manifest, manifestFile, failure);
}

/** Writes the files, then the manifest; says what was done and what the user does next. */
function writeWraps(changing: WrapWork[], manifest: WrapManifest, manifestFile: string, failure: number): number {
  let status = failure;
  const written = writeWrapFiles(changing, manifest);
  for (const result of written) {
    const file = sanitize(result.work.target.file);
    if (!result.ok) {
      process.stderr.write(`mcp-spy: cannot wrap ${file}: ${sanitize(result.why!)}\n`);
      status = exitCodes.badUse;
      continue;
    }
    const count = result.work.plan!.wrapped.length;
    out(`wrapped ${count} server${count === 1 ? '' : 's'} in ${file}${result.backup ? ` (backup: ${sanitize(result.backup)})` : ''}`);
  }
  const saved = writeManifest(manifestFile, manifest);
  if (!saved.ok) {
    process.stderr.write(`mcp-spy: ${sanitize(saved.why)}: unwrap cannot restore these entries exactly; the backups beside the files hold them\n`);
    status = exitCodes.badUse;
  }
  const done = written.filter((result) => result.ok);
  if (done.length === 0) return status;
  const spies = done.flatMap((result) => result.work.plan!.wrapped.flatMap((entry) => (entry.run ? [entry.run] : [])));
  if (spies.length > 0)
    out(
      `Start the spy of each URL entry before the client connects (a client finds nothing on its port otherwise):\n${spies.map((run) => `  ${sanitize(run.map(shellWord).join(' '))}`).join('\n')}`,
    );
  const restarts = new Set(done.map((result) => result.work.target.places[0]!.client));
  for (const client of restarts) out(`${(clients[client] as ClientFacts).title} notices the change once you ${(clients[client] as ClientFacts).restart}.`);
  out(
    `Each run of a wrapped server writes its record to ${sanitize(sessionsDirectory(process.env))}: mcp-spy sessions lists them. mcp-spy unwrap puts the entries back.`,
  );
  return status;
}
