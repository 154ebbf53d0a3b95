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

/**
 * The stages of wire/, each a folder, and the stages each may import besides itself: a frame is
 * framed, then decoded and classified, then correlated; redaction masks values and knows no frame
 * state (correlation and redaction stand side by side); observe/ joins them into an observation;
 * http/ maps an HTTP exchange onto frames and events. Anything else runs up or sideways.
 */
export const wireStages: Record<string, readonly string[]> = {
  framing: [],
  classify: ['framing'],
  correlate: ['framing', 'classify'],
  redact: ['framing', 'classify'],
  observe: ['framing', 'classify', 'correlate', 'redact'],
  http: ['framing', 'classify', 'correlate', 'redact', 'observe'],
};

/** The stage of wire/ a path (relative to src/) lies in; undefined for a file at wire/'s top. */
function stageOf(path: string): string | undefined {
  const parts = path.split('/');
  return parts[0] === 'wire' && parts.length > 2 ? parts[1] : undefined;
}

/** What an import from one file of wire/ to another does against the stages: a problem, or undefined. */
function stageProblem(file: string, specifier: string, how: string): string | undefined {
  const resolved = posix.normalize(posix.join(posix.dirname(file), specifier));
  if (!resolved.startsWith('wire/')) return undefined;
  const from = stageOf(file)!;
  const to = stageOf(resolved);
  if (to === undefined || !Object.hasOwn(wireStages, to)) return `${file} loads ${specifier} (${how}): wire/ holds its modules in the folders of its stages`;
  if (to === from || wireStages[from]!.includes(to)) return undefined;
  return `${file} loads ${specifier} (${how}): wire/${from}/ may not import wire/${to}/ (it may import ${[from, ...wireStages[from]!].join(', ')})`;
}

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
  const stage = stageOf(file);
  if (layer === 'wire' && (stage === undefined || !Object.hasOwn(wireStages, stage)))
    return [`${file}: wire/ holds its modules in the folders of its stages (${Object.keys(wireStages).join(', ')})`];
  const { uses, problems } = modulesOf(text);
  const found = problems.map((problem) => `${file}: ${problem}`);
  for (const { specifier, how } of uses) {
    const target = layerOf(file, specifier);
    if (target !== undefined && floorOf(target) < 0) found.push(`${file} loads ${specifier} (${how}): ${target}/ is not a room of the layout`);
    else if (target !== undefined && floorOf(target) > floorOf(layer))
      found.push(`${file} loads ${specifier} (${how}): ${target}/ stands above ${layer}/ in the layout`);
    else if (target !== undefined && target !== layer && floorOf(target) === floorOf(layer)) {
      found.push(`${file} loads ${specifier} (${how}): ${target}/ stands beside ${layer}/ in the layout, neither imports the other`);
    } else if (layer === 'wire' && target === 'wire') {
      const problem = stageProblem(file, specifier, how);
      if (problem) found.push(problem);
    }
    const bare = specifier.replace(/^node:/, '');
    if (pureLayers.includes(layer) && nodeIo.some((name) => bare === name || bare.startsWith(`${name}/`))) {
      found.push(`${file} loads ${specifier} (${how}): ${layer}/ is a pure stage, it does no I/O`);
    }
    for (const rule of packageRules) {
      if ((specifier === rule.name || specifier.startsWith(`${rule.name}/`)) && !rule.allowedIn(layer))
        found.push(`${file} loads ${specifier} (${how}): ${rule.why}`);
    }
  }
  return found;
}

/**
 * Import circles among source files (paths relative to src/, with their text), as a depth-first walk
 * meets them: none exactly when the imports have no circle, else at least one through each knot of
 * files that import one another round. Each is given once, as the files around it from its first
 * file in path order. Type-only imports count: a
 * circle of types still ties two modules together so neither can be read or moved alone.
 */
export function importCircles(files: readonly { file: string; text: string }[]): string[][] {
  const known = new Set(files.map(({ file }) => file));
  const edges = new Map<string, string[]>();
  for (const { file, text } of files) {
    const targets = modulesOf(text)
      .uses.filter(({ specifier }) => specifier.startsWith('.'))
      .map(({ specifier }) => posix.normalize(posix.join(posix.dirname(file), specifier)).replace(/\.js$/, '.ts'))
      .filter((target) => known.has(target));
    edges.set(file, [...new Set(targets)].sort());
  }
  const circles = new Map<string, string[]>();
  const done = new Set<string>();
  const path: string[] = [];
  const onPath = new Set<string>();
  const visit = (file: string) => {
    path.push(file);
    onPath.add(file);
    for (const next of edges.get(file) ?? []) {
      if (onPath.has(next)) {
        const circle = path.slice(path.indexOf(next));
        // The same circle met from another of its files is one circle: keyed from its least file.
        const start = circle.indexOf([...circle].sort()[0]!);
        const turned = [...circle.slice(start), ...circle.slice(0, start)];
        circles.set(turned.join(' -> '), turned);
      } else if (!done.has(next)) visit(next);
    }
    path.pop();
    onPath.delete(file);
    done.add(file);
  };
  for (const file of [...known].sort()) if (!done.has(file)) visit(file);
  return [...circles.values()];
}

/** The names of the types a module exports (interfaces, type aliases, classes, enums). */
export function exportedTypeNames(text: string): string[] {
  return [...text.matchAll(/^export\s+(?:declare\s+)?(?:abstract\s+)?(?:interface|type|class|enum)\s+([A-Za-z_$][\w$]*)/gm)].map((match) => match[1]!);
}

/** Each name given to more than one thing, with the files that give it: `names` lists each file's names. */
export function sharedNames(names: readonly { file: string; names: readonly string[] }[]): Record<string, string[]> {
  const owners = new Map<string, string[]>();
  for (const { file, names: given } of names) for (const name of new Set(given)) owners.set(name, [...(owners.get(name) ?? []), file]);
  return Object.fromEntries([...owners].filter(([, files]) => files.length > 1));
}
