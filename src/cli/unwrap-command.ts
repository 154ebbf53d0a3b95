import { configTargets, realPathOf, type TargetChoice } from '../clients/config-targets.js';
import { withManifestLock } from '../clients/manifest-lock.js';
import { handWrapped, planUnwrapFiles, writeUnwrapFiles, type UnwrapChoice } from '../clients/unwrap-files.js';
import type { UnwrapNote } from '../clients/unwrap-plan.js';
import { manifestPath, writeManifest } from '../clients/wrap-manifest.js';
import { sanitize } from '../render/sanitize.js';
import { exitCodes, SpyError } from './errors.js';
import { loadManifest, printDiff, targetChoiceOf, type WrapOptions } from './wrap-command.js';

export type UnwrapOptions = Omit<WrapOptions, 'yes' | 'project'>;

/** What became of each entry, in words. */
const outcomeWords = {
  restored: 'restored',
  gone: 'no longer in the file: nothing to restore',
  changed: 'changed since it was wrapped: left as it is (edit it by hand; mcp-spy unwrap will try again next time)',
} satisfies Record<UnwrapNote['outcome'], string>;

/** `mcp-spy unwrap [client]`: puts back each entry wrap changed, exactly as it was. */
export async function runUnwrap(client: string | undefined, options: UnwrapOptions): Promise<number> {
  const choice = targetChoiceOf(client, options);
  const manifestFile = manifestPath(process.env);
  // A dry run writes nothing: it needs no lock.
  if (options.dryRun) return unwrapWith(choice, manifestFile, options);
  const locked = await withManifestLock(manifestFile, () => unwrapWith(choice, manifestFile, options));
  if (!locked.ok) throw new SpyError(locked.why);
  return locked.value;
}

/** The unwrap itself (the manifest held, unless it is a dry run). */
async function unwrapWith(choice: TargetChoice, manifestFile: string, options: UnwrapOptions): Promise<number> {
  const manifest = loadManifest(manifestFile);
  const unwrapChoice: UnwrapChoice = {
    ...(choice.client !== undefined ? { client: choice.client } : {}),
    ...(choice.config !== undefined ? { file: realPathOf(choice.config) } : {}),
    servers: options.server,
  };
  const works = planUnwrapFiles(manifest, unwrapChoice);
  const byHand = handWrapped(configTargets(choice, process.env).targets, manifest).filter(
    (entry) => options.server.length === 0 || options.server.includes(entry.name),
  );
  for (const entry of byHand) {
    process.stdout.write(
      `${sanitize(entry.file)}\n  ${sanitize(entry.name)}: runs mcp-spy, but not as mcp-spy wrap left it (wrapped by hand?): left as it is\n`,
    );
  }
  if (works.length === 0) {
    process.stdout.write('nothing to unwrap: no entry wrapped by mcp-spy wrap is recorded for these\n');
    return exitCodes.ok;
  }
  let status: number = exitCodes.ok;
  for (const work of works) {
    process.stdout.write(`${sanitize(work.file)}${work.gone ? ' (no longer there: its entries are forgotten)' : ''}\n`);
    if (work.failure) {
      process.stderr.write(`mcp-spy: cannot unwrap ${sanitize(work.file)}: ${sanitize(work.failure)}\n`);
      status = exitCodes.badUse;
      continue;
    }
    for (const note of work.plan!.notes) process.stdout.write(`  ${sanitize(note.entry.path.at(-1)!)}: ${outcomeWords[note.outcome]}\n`);
  }
  if (options.dryRun) {
    for (const work of works) if (work.plan && work.read) printDiff(work.file, work.read.bytes.toString('utf8'), work.plan.after);
    process.stdout.write('(dry run: nothing written)\n');
    return status;
  }
  for (const result of writeUnwrapFiles(works, manifest)) {
    const file = sanitize(result.work.file);
    if (!result.ok) {
      process.stderr.write(`mcp-spy: cannot unwrap ${file}: ${sanitize(result.why!)}\n`);
      status = exitCodes.badUse;
    } else if (result.backup?.removed === false) {
      process.stdout.write(`${file} has other changes since it was wrapped; its backup from before is kept at ${sanitize(result.backup.path)}\n`);
    }
  }
  const saved = writeManifest(manifestFile, manifest);
  if (!saved.ok) {
    process.stderr.write(`mcp-spy: ${sanitize(saved.why)}\n`);
    status = exitCodes.badUse;
  }
  return status;
}
