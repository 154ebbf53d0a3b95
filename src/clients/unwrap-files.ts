import { existsSync, readFileSync, unlinkSync } from 'node:fs';
import { clients, syntaxOf, type ClientFacts, type ClientId } from './client-table.js';
import { readConfigFile, replaceConfigFile, type ReadConfig } from './safe-write.js';
import { planUnwrap, type UnwrapPlan } from './unwrap-plan.js';
import type { ConfigTarget } from './config-targets.js';
import { parseConfig } from './config-text.js';
import { serverEntries } from './server-entries.js';
import { backupPath } from './wrap-files.js';
import { samePath, type WrapManifest, type WrappedEntry } from './wrap-manifest.js';

/** Which wrapped entries to put back: all, or those of one client, one file, some names. */
export interface UnwrapChoice {
  client?: ClientId;
  /** The real path of a config named with --config. */
  file?: string;
  servers: readonly string[];
}

/** One config file in an unwrap. */
export interface UnwrapWork {
  file: string;
  /** The manifest's entries of this file that were not chosen: they stay wrapped, and owed. */
  others: WrappedEntry[];
  read?: ReadConfig;
  plan?: UnwrapPlan;
  failure?: string;
  /** The file is no longer there (a project removed): nothing to put back, its entries are forgotten. */
  gone?: boolean;
}

function chosen(entry: WrappedEntry, choice: UnwrapChoice): boolean {
  if (choice.client !== undefined && entry.client !== choice.client) return false;
  return choice.servers.length === 0 || choice.servers.includes(entry.path.at(-1)!);
}

/** Reads each file the manifest names (and the choice selects) and plans putting its entries back. */
export function planUnwrapFiles(manifest: WrapManifest, choice: UnwrapChoice): UnwrapWork[] {
  const works: UnwrapWork[] = [];
  for (const [file, entries] of Object.entries(manifest.files)) {
    if (choice.file !== undefined && file !== choice.file) continue;
    const mine = entries.filter((entry) => chosen(entry, choice));
    if (mine.length === 0) continue;
    const others = entries.filter((entry) => !chosen(entry, choice));
    if (!existsSync(file)) {
      works.push({ file, others, gone: true, plan: { after: '', notes: mine.map((entry) => ({ entry, outcome: 'gone' as const })), kept: [] } });
      continue;
    }
    const read = readConfigFile(file);
    if (!read.ok) {
      works.push({ file, others, failure: read.why });
      continue;
    }
    const syntax = (clients[mine[0]!.client as ClientId] as ClientFacts | undefined)?.syntax ?? 'jsonc';
    const planned = planUnwrap(read.read.bytes.toString('utf8'), syntax, mine);
    works.push(planned.ok ? { file, others, read: read.read, plan: planned.plan } : { file, others, read: read.read, failure: planned.why });
  }
  return works;
}

export interface UnwrapWritten {
  work: UnwrapWork;
  ok: boolean;
  why?: string;
  /** Set when the backup was removed (the file is back to its bytes) or kept (it differs: other edits since). */
  backup?: { path: string; removed: boolean };
}

/** The bytes of a file, or undefined when it cannot be read. */
function bytesOf(path: string): Buffer | undefined {
  try {
    return readFileSync(path);
  } catch {
    return undefined;
  }
}

/**
 * Writes each file whose entries come back, and updates the manifest (in place). Once no entry of a
 * file is owed any more, its backup is removed if the file is back to exactly its bytes.
 */
export function writeUnwrapFiles(works: readonly UnwrapWork[], manifest: WrapManifest): UnwrapWritten[] {
  const written: UnwrapWritten[] = [];
  for (const work of works) {
    if (work.gone) {
      manifest.files[work.file] = work.others;
      written.push({ work, ok: true });
      continue;
    }
    if (!work.plan || !work.read) continue;
    const { plan, read } = work;
    if (plan.after !== read.bytes.toString('utf8')) {
      const replaced = replaceConfigFile(read, plan.after);
      if (!replaced.ok) {
        written.push({ work, ok: false, why: replaced.why });
        continue;
      }
    }
    const owed = [...work.others, ...plan.kept];
    manifest.files[work.file] = owed;
    const done: UnwrapWritten = { work, ok: true };
    if (owed.length === 0) {
      const backup = backupPath(read.real);
      const saved = bytesOf(backup);
      if (saved?.equals(Buffer.from(plan.after))) {
        unlinkSync(backup);
        done.backup = { path: backup, removed: true };
      } else if (saved) {
        done.backup = { path: backup, removed: false };
      }
    }
    written.push(done);
  }
  return written;
}

/**
 * Entries that run the spy but that wrap did not wrap (by hand, or its manifest was lost): unwrap
 * cannot know their earlier text, so it names them and leaves them.
 */
export function handWrapped(targets: readonly ConfigTarget[], manifest: WrapManifest): { file: string; name: string }[] {
  return targets.flatMap((target) => {
    const read = readConfigFile(target.file);
    if (!read.ok) return [];
    const parsed = parseConfig(read.read.bytes.toString('utf8'), syntaxOf(target.places));
    if (!parsed.ok) return [];
    const known = manifest.files[read.read.real] ?? [];
    return target.places.flatMap((place) => {
      const found = serverEntries(parsed.config, place.serversAt);
      if (!found.ok) return [];
      return found.entries
        .filter((entry) => entry.kind.shape === 'spied' && !known.some((wrapped) => samePath(wrapped.path, entry.path)))
        .map((entry) => ({ file: target.file, name: entry.name }));
    });
  });
}
