import { existsSync } from 'node:fs';
import type { ConfigTarget } from './config-targets.js';
import { readConfigFile, replaceConfigFile, type ReadConfig } from './safe-write.js';
import { portsOf } from './url-entries.js';
import { samePath, type WrapManifest } from './wrap-manifest.js';
import { planWrap, type FilePlan, type WrapChoice } from './wrap-plan.js';

/** One config file in a wrap: what was read, what would change, or why it cannot be done. */
export interface WrapWork {
  target: ConfigTarget;
  read?: ReadConfig;
  plan?: FilePlan;
  failure?: string;
}

/** The backup of a config: beside it, under its own name with a suffix. */
export function backupPath(real: string): string {
  return `${real}.mcp-spy-backup`;
}

/** Reads and plans each file; nothing is written. The manifest tells URL entries already pointed at a spy, and the ports taken. */
export function planWrapFiles(targets: readonly ConfigTarget[], choice: WrapChoice, manifest: WrapManifest = { v: 1, files: {} }): WrapWork[] {
  const ports = new Set(Object.values(manifest.files).flatMap(portsOf));
  return targets.map((target) => {
    const read = readConfigFile(target.file);
    if (!read.ok) return { target, failure: read.why };
    const planned = planWrap(read.read.bytes.toString('utf8'), target.places, { ...choice, ports }, manifest.files[read.read.real] ?? []);
    return planned.ok ? { target, read: read.read, plan: planned.plan } : { target, read: read.read, failure: planned.why };
  });
}

/** Whether a file's plan changes it. */
export function changesFile(work: WrapWork): boolean {
  return work.plan !== undefined && work.plan.after !== work.plan.before;
}

export interface WrapWritten {
  work: WrapWork;
  ok: boolean;
  why?: string;
  backup?: string;
}

/**
 * Writes each changed file and records its wrapped entries in the manifest (changed in place). The
 * backup is taken before a file's first change: when the manifest holds nothing of it yet.
 */
export function writeWrapFiles(works: readonly WrapWork[], manifest: WrapManifest, hooks: { beforeReplace?: () => void } = {}): WrapWritten[] {
  return works.filter(changesFile).map((work) => {
    const read = work.read!;
    const known = manifest.files[read.real] ?? [];
    const backup = known.length === 0 || !existsSync(backupPath(read.real)) ? backupPath(read.real) : undefined;
    const written = replaceConfigFile(read, work.plan!.after, { ...(backup ? { backup } : {}), ...hooks });
    if (!written.ok) return { work, ok: false, why: written.why };
    const fresh = work.plan!.wrapped;
    manifest.files[read.real] = [...known.filter((entry) => !fresh.some((added) => samePath(added.path, entry.path))), ...fresh];
    return { work, ok: true, ...(written.backedUp ? { backup: written.backedUp } : {}) };
  });
}
