// The layout's rules (docs/architecture.md, "Rooms"), checked on the text of one source file.
import { posix } from 'node:path';

/**
 * The rooms of src/, floor by floor from the bottom: a room imports only its own room and rooms on the
 * floors below it, never a room beside it on its own floor. export/ stands below sinks/: its live
 * exporters (OpenTelemetry) are sinks. recording/ is the loaded recording (exchanges, matching,
 * comparison) that replay, mock, drift and report all read; those four stand side by side above
 * review/ and check/, whose tables and rules drift and report reuse.
 */
export const layerFloors: readonly (readonly string[])[] = [
  ['protocol'],
  ['wire'],
  ['record'],
  ['recording'],
  ['render'],
  ['transports'],
  ['export'],
  ['sinks'],
  ['observer'],
  ['faults'],
  ['spy'],
  ['clients'],
  ['review', 'check'],
  ['replay', 'mock', 'drift', 'report'],
  ['ui'],
  ['cli'],
];

/** The floor a room stands on, -1 for a folder that is not a room of the layout. */
const floorOf = (room: string) => layerFloors.findIndex((floor) => floor.includes(room));

/** The pure stages: they compute, and never read, write, listen, connect or spawn. */
const pureLayers = ['protocol', 'wire', 'render'];

/** Node's modules that do I/O (with or without `node:`, subpaths such as fs/promises included). */
const nodeIo = ['fs', 'net', 'http', 'https', 'http2', 'tls', 'dgram', 'dns', 'child_process', 'worker_threads', 'cluster', 'readline'];

/** Packages kept out of some rooms: colour anywhere but render/ and cli/. */
const packageRules: { name: string; allowedIn: (layer: string) => boolean; why: string }[] = [
  { name: 'chalk', allowedIn: (layer) => layer === 'render' || layer === 'cli', why: 'chalk lives in render/' },
];

/** One module a file loads, and how: `import x from`, `export ... from`, `import 'x'`, `import('x')`. */
export interface ModuleUse {
  specifier: string;
  how: 'import' | 'export' | 'side-effect' | 'dynamic';
}

/** Every module the text loads; a dynamic import of a name that is not a plain string is returned as a problem. */
export function modulesOf(text: string): { uses: ModuleUse[]; problems: string[] } {
  const uses: ModuleUse[] = [];
  const problems: string[] = [];
  for (const match of text.matchAll(/\b(import|export)\s+(?:type\s+)?[^'";]*?\bfrom\s*(['"])([^'"]+)\2/g)) {
    uses.push({ specifier: match[3]!, how: match[1] === 'import' ? 'import' : 'export' });
  }
  for (const match of text.matchAll(/\bimport\s*(['"])([^'"]+)\1/g)) uses.push({ specifier: match[2]!, how: 'side-effect' });
  for (const match of text.matchAll(/\bimport\s*\(\s*([^)]*?)\s*\)/g)) {
    const literal = /^(['"`])([^'"`$]+)\1$/.exec(match[1]!);
    if (literal) uses.push({ specifier: literal[2]!, how: 'dynamic' });
    else problems.push(`a dynamic import of a computed name cannot be checked: import(${match[1]})`);
  }
  return { uses, problems };
}

/** The room a module of src/ is in, from the file (relative to src/) that names it; undefined outside the rooms. */
export function layerOf(file: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const resolved = posix.normalize(posix.join(posix.dirname(file), specifier));
  if (resolved.startsWith('..') || !resolved.includes('/')) return undefined;
  return resolved.split('/')[0];
}

/** What a source file (its path relative to src/, and its text) does against the layout: one line per problem. */
export function layerProblems(file: string, text: string): string[] {
  if (!file.includes('/')) return [];
  const layer = file.split('/')[0]!;
  if (floorOf(layer) < 0) return [`${file}: ${layer}/ is not a room of the layout (docs/architecture.md, Rooms)`];
  const { uses, problems } = modulesOf(text);
  const found = problems.map((problem) => `${file}: ${problem}`);
  for (const { specifier, how } of uses) {
    const target = layerOf(file, specifier);
    if (target !== undefined && floorOf(target) < 0) found.push(`${file} loads ${specifier} (${how}): ${target}/ is not a room of the layout`);
    else if (target !== undefined && floorOf(target) > floorOf(layer)) found.push(`${file} loads ${specifier} (${how}): ${target}/ stands above ${layer}/ in the layout`);
    else if (target !== undefined && target !== layer && floorOf(target) === floorOf(layer)) {
      found.push(`${file} loads ${specifier} (${how}): ${target}/ stands beside ${layer}/ in the layout, neither imports the other`);
    }
    const bare = specifier.replace(/^node:/, '');
    if (pureLayers.includes(layer) && nodeIo.some((name) => bare === name || bare.startsWith(`${name}/`))) {
      found.push(`${file} loads ${specifier} (${how}): ${layer}/ is a pure stage, it does no I/O`);
    }
    for (const rule of packageRules) {
      if ((specifier === rule.name || specifier.startsWith(`${rule.name}/`)) && !rule.allowedIn(layer)) found.push(`${file} loads ${specifier} (${how}): ${rule.why}`);
    }
  }
  return found;
}
