import { readFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { z } from 'zod';
import { userStateDirectory } from '../record/paths.js';
import { writePrivateFile } from './safe-write.js';

/** One entry `wrap` changed: where, its exact text before, and its value after (to tell a later edit by the user). */
export interface WrappedEntry {
  /** The keys from the file's top to the entry. */
  path: string[];
  client: string;
  /** The entry's exact text before wrapping, comments inside it included. */
  original: string;
  /** The entry's value as wrapped. */
  wrapped: unknown;
  /** A URL entry pointed at a local spy (wrap --http): the command that runs that spy. */
  run?: string[];
}

/** Every config file `wrap` changed (by its real path) and the entries it changed there. */
export interface WrapManifest {
  v: 1;
  files: Record<string, WrappedEntry[]>;
}

/**
 * Where the manifest lives: the user's state directory, not the sessions directory (MCP_SPY_DIR
 * moves the records, and may differ between one wrap and the next unwrap).
 */
export function manifestPath(env: NodeJS.ProcessEnv): string {
  return join(userStateDirectory(env), 'wrapped.json');
}

/** The manifest, empty when there is none yet; a manifest that cannot be read is an error, not a fresh start (it holds the only copy of the originals). */
export function readManifest(path: string): { ok: true; manifest: WrapManifest } | { ok: false; why: string } {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { ok: true, manifest: { v: 1, files: {} } };
    return { ok: false, why: `cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}` };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { ok: false, why: `${path} is not valid JSON` };
  }
  // Every entry is checked before any is used: unwrap writes `original` into a config, at `path`.
  const checked = manifestSchema.safeParse(parsed);
  // The keys as parsed: the schema's copy drops a key such as __proto__.
  const files = checked.success ? Object.keys((parsed as WrapManifest).files) : [];
  const relative = files.find((file) => !isAbsolute(file));
  if (!checked.success || relative !== undefined) {
    const where = relative !== undefined ? ['files', relative] : checked.error!.issues[0]!.path;
    return { ok: false, why: `${path} is not a manifest of this mcp-spy${where.length > 0 ? ` (at ${pointer(where)})` : ''}` };
  }
  // The text as parsed, not the schema's copy: a key such as __proto__ stays a key (and was refused above).
  return { ok: true, manifest: parsed as WrapManifest };
}

/** Where in the manifest, as `files["/home/me/.cursor/mcp.json"][0].original`. */
function pointer(path: readonly PropertyKey[]): string {
  return path
    .map((key, index) =>
      typeof key === 'number'
        ? `[${key}]`
        : index === 0
          ? String(key)
          : /^[A-Za-z_]\w*$/.test(String(key))
            ? `.${String(key)}`
            : `[${JSON.stringify(String(key))}]`,
    )
    .join('');
}

const wrappedEntrySchema = z.object({
  path: z.array(z.string()).min(1),
  client: z.string(),
  original: z.string(),
  wrapped: z.unknown().refine((value) => value !== undefined),
  run: z.array(z.string()).optional(),
});

const manifestSchema = z.object({ v: z.literal(1), files: z.record(z.string(), z.array(wrappedEntrySchema)) });

/** Writes the manifest (0600, atomically): it holds parts of configs, which may hold secrets. */
export function writeManifest(path: string, manifest: WrapManifest): { ok: true } | { ok: false; why: string } {
  const files = Object.fromEntries(Object.entries(manifest.files).filter(([, entries]) => entries.length > 0));
  return writePrivateFile(path, `${JSON.stringify({ v: 1, files }, null, 2)}\n`);
}

/** Two entry paths are the same entry. */
export function samePath(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((key, index) => key === b[index]);
}
