import { existsSync, lstatSync, realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { resolve } from 'node:path';
import { clientIds, clients, configPlaces, type ClientFacts, type ClientId, type ConfigPlace } from './client-table.js';

/** One config file to work on, and the places of the table in it. */
export interface ConfigTarget {
  file: string;
  places: ConfigPlace[];
}

export interface TargetChoice {
  client?: ClientId;
  /** --config FILE: a file where the table does not look, read as the --format client's. */
  config?: string;
  format?: ClientId;
  /** The project whose project and local scopes are read (default: the working directory). */
  project?: string;
}

/** The real path of a file, or the path as given when it cannot be resolved (it may not exist). */
export function realPathOf(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    return resolve(file);
  }
}

/** Places grouped by the file that holds them, in table order. */
function byFile(places: ConfigPlace[]): ConfigTarget[] {
  const targets = new Map<string, ConfigTarget>();
  for (const place of places) {
    // Keyed by the real file: a project reached through a link to the home directory is the same file.
    const key = realPathOf(place.file);
    const target = targets.get(key) ?? { file: place.file, places: [] };
    // Run from the home directory, Cursor's project file is its user file: one place, the user's.
    if (target.places.some((known) => known.serversAt.join('\0') === place.serversAt.join('\0'))) continue;
    target.places.push(place);
    targets.set(key, target);
  }
  return [...targets.values()];
}

/**
 * The config files to work on: the one named with --config, else those of the table (of one client,
 * or all) that exist on this machine; `looked` lists every path looked at, for a user who has none.
 */
export function configTargets(choice: TargetChoice, env: NodeJS.ProcessEnv): { targets: ConfigTarget[]; looked: string[] } {
  if (choice.config !== undefined) {
    const client = choice.format ?? choice.client!;
    const file = resolve(choice.config);
    return { targets: [{ file, places: [{ client, scope: 'user', file, serversAt: [(clients[client] as ClientFacts).serversKey] }] }], looked: [file] };
  }
  const context = { platform: process.platform, home: env.HOME || homedir(), env, project: resolve(choice.project ?? process.cwd()) };
  const places = configPlaces(choice.client ? [choice.client] : clientIds, context);
  const targets = byFile(places);
  return { targets: targets.filter((target) => existsSync(target.file) || isLink(target.file)), looked: targets.map((target) => target.file) };
}

/** A symbolic link is there even when it leads nowhere (dangling, a loop): the user is told, not told there is no config. */
function isLink(file: string): boolean {
  try {
    return lstatSync(file).isSymbolicLink();
  } catch {
    return false;
  }
}
