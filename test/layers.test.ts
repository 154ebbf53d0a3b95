import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exportedTypeNames, importCircles, layerFloors, layerProblems, modulesOf, sharedNames } from './helpers/layers.js';
import { root } from './helpers/spy.js';

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sourceFiles(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [],
  );
}

const src = join(root, 'src');
const files = sourceFiles(src).map((file) => ({ file: relative(src, file).split('\\').join('/'), text: readFileSync(file, 'utf8') }));

describe('layers', () => {
  it('finds the source', () => {
    expect(files.length).toBeGreaterThan(20);
  });

  it('names only rooms that are there, each once', () => {
    const rooms = layerFloors.flat();
    expect(new Set(rooms).size).toBe(rooms.length);
    const folders = new Set(files.filter(({ file }) => file.includes('/')).map(({ file }) => file.split('/')[0]));
    expect(rooms.filter((room) => !folders.has(room))).toEqual([]);
  });

  it.each(files.map(({ file, text }) => [file, text]))('%s keeps to the layout', (file, text) => {
    expect(layerProblems(file, text)).toEqual([]);
  });

  it('has no import circles (a type both sides need lives where both can import it)', () => {
    expect(importCircles(files).map((circle) => [...circle, circle[0]].join(' -> '))).toEqual([]);
  });

  // One word, one meaning, on the spy's path: the transport's tap, the handle on the observer thread
  // and the thread's own modules each have a name of their own.
  const spyPath = files.filter(({ file }) => ['observer', 'transports', 'wire', 'spy'].includes(file.split('/')[0]!));

  it('gives no two exported types one name in observer/, transports/, wire/ and spy/', () => {
    expect(spyPath.length).toBeGreaterThan(50);
    expect(sharedNames(spyPath.map(({ file, text }) => ({ file, names: exportedTypeNames(text) })))).toEqual({});
  });

  it('gives no two files one name in observer/, transports/, wire/ and spy/', () => {
    expect(sharedNames(spyPath.map(({ file }) => ({ file, names: [file.split('/').at(-1)!] })))).toEqual({});
  });
});

/** No two exported types of src/ share a name: one word, one meaning. The types a file declares for export: interfaces, type aliases, classes, enums. */
const exportedTypes = (text: string) =>
  [...text.matchAll(/^export (?:declare )?(?:abstract )?(?:interface|type|class|enum) (\w+)/gm)].map((match) => match[1]!);

describe('names', () => {
  const declared = new Map<string, string[]>();
  for (const { file, text } of files) for (const name of exportedTypes(text)) declared.set(name, [...(declared.get(name) ?? []), file]);

  it.each(files.map(({ file, text }) => [file, text]))('%s exports no type whose name another file uses', (_file, text) => {
    const shared = exportedTypes(text).filter((name) => declared.get(name)!.length > 1);
    expect(shared.map((name) => `${name}: ${declared.get(name)!.join(', ')}`)).toEqual([]);
  });
});

describe('the layout checker', () => {
  it.each([
    ['an import from a room further down', 'wire/framing/x.ts', "import { runSpy } from '../spy/stdio-spy.js';"],
    ['a type import from a room further down', 'wire/http/x.ts', "import type { RecordEntry } from '../record/schema.js';"],
    ['an import list over several lines', 'record/x.ts', "import {\n  a,\n  b,\n} from '../observer/recorder.js';"],
    ['a side-effect import', 'wire/classify/x.ts', "import '../cli/main.js';"],
    ['a dynamic import', 'sinks/x.ts', "const { runSpy } = await import('../spy/stdio-spy.js');"],
    ['a dynamic import of a computed name', 'cli/x.ts', 'const module = await import(name);'],
    ['a ../../ path out of a subfolder', 'observer/stdio/x.ts', "import { SpyError } from '../../cli/errors.js';"],
    ['a re-export', 'transports/x.ts', "export { runSpy } from '../spy/stdio-spy.js';"],
    ['a re-export of everything', 'protocol/x.ts', "export * from '../wire/observe/observe-frame.js';"],
    ['a room the layout does not have', 'session/x.ts', "import { nowMs } from '../wire/framing/now.js';"],
    ['an import of a room the layout does not have', 'spy/x.ts', "import { x } from '../session/y.js';"],
    ['an import from a room beside it (drift and replay)', 'drift/x.ts', "import { replay } from '../replay/replay.js';"],
    ['an import from a room beside it (mock and replay)', 'mock/x.ts', "import { driveSession } from '../replay/drive-session.js';"],
    ['an import from a room beside it (replay and mock)', 'replay/x.ts', "import type { MockEngine } from '../mock/mock-engine.js';"],
    ['an import from a room beside it (report and drift)', 'report/x.ts', "import { diffSnapshots } from '../drift/diff.js';"],
    ['an import from a room beside it (review and check)', 'review/x.ts', "import { createChecker } from '../check/engine.js';"],
    ['the recording model importing its readers', 'recording/x.ts', "import { prepareMock } from '../mock/mock.js';"],
    ['the record importing the line writer', 'record/x.ts', "import { openLineSink } from '../sinks/line-sink.js';"],
    ['chalk outside render/', 'sinks/x.ts', "import chalk from 'chalk';"],
    ['a file of wire/ outside the folders of its stages', 'wire/x.ts', "import { nowMs } from './framing/now.js';"],
    ['a folder of wire/ that is no stage', 'wire/misc/x.ts', "import { nowMs } from '../framing/now.js';"],
    ['an import of a file at the top of wire/', 'wire/http/x.ts', "import { x } from '../x.js';"],
    ['an import of a folder of wire/ that is no stage', 'wire/http/x.ts', "import { x } from '../misc/x.js';"],
    ['an import up the stages (framing of classification)', 'wire/framing/x.ts', "import type { FrameKind } from '../classify/kinds.js';"],
    ['an import up the stages (correlation of the HTTP mapping)', 'wire/correlate/x.ts', "import type { HeaderBag } from '../http/mcp-headers.js';"],
    ['an import up the stages (classification of observation)', 'wire/classify/x.ts', "import { observeFrame } from '../observe/observe-frame.js';"],
    ['an import sideways (redaction of correlation)', 'wire/redact/x.ts', "import type { Correlator } from '../correlate/correlate.js';"],
    ['an import sideways (correlation of redaction)', 'wire/correlate/x.ts', "import { redactedValue } from '../redact/redact-frame.js';"],
    ['a re-export up the stages', 'wire/framing/x.ts', "export { classifyMessage } from '../classify/classify.js';"],
    ...['node:fs', 'fs', 'node:fs/promises', 'fs/promises', 'node:net', 'node:http', 'node:child_process', 'node:worker_threads'].map((name) => [
      `${name} in a pure stage`,
      'wire/correlate/x.ts',
      `import { x } from '${name}';`,
    ]),
    ['node:http types in a pure stage', 'render/x.ts', "import type { IncomingHttpHeaders } from 'node:http';"],
    ['node:fs loaded dynamically in a pure stage', 'protocol/x.ts', "const fs = await import('node:fs');"],
  ])('refuses %s', (_name, file, text) => {
    expect(layerProblems(file, text)).toHaveLength(1);
  });

  it.each([
    [
      'imports from rooms further up and its own',
      'observer/stdio/x.ts',
      "import { a } from '../../wire/framing/now.js';\nimport { b } from '../recorder.js';\nimport { c } from './messages.js';",
    ],
    [
      'imports of its own stage and the stages below',
      'wire/http/x.ts',
      "import { a } from './mcp-headers.js';\nimport { b } from '../observe/observe-frame.js';\nimport { c } from '../correlate/correlate.js';\nimport { d } from '../framing/now.js';",
    ],
    [
      'imports of wire/ from a room further down',
      'record/x.ts',
      "import { a } from '../wire/http/exchange-sessions.js';\nimport { b } from '../wire/framing/limits.js';",
    ],
    [
      'Node modules that do no I/O in a pure stage',
      'wire/classify/x.ts',
      "import { isUtf8 } from 'node:buffer';\nimport { stripVTControlCharacters } from 'node:util';",
    ],
    [
      'the readers of a recording importing its model',
      'drift/x.ts',
      "import { loadRecording } from '../recording/load.js';\nimport { createMatcher } from '../recording/matcher.js';",
    ],
    ['mock importing the model it shares with replay', 'mock/x.ts', "import { createDeferred } from '../recording/deferred.js';"],
    [
      'drift and report importing the rooms below their floor',
      'report/x.ts',
      "import { createChecker } from '../check/engine.js';\nimport { createStatsCollector } from '../review/stats.js';",
    ],
    ['the line writer importing the record', 'sinks/x.ts', "import { openOutputFile } from '../record/open-output.js';"],
    ['node:fs outside the pure stages', 'record/x.ts', "import { openSync } from 'node:fs';"],
    ['chalk in render/', 'render/x.ts', "import { Chalk } from 'chalk';"],
    ['a dynamic import of its own room', 'cli/x.ts', "const { runDemo } = await import('./demo-command.js');"],
    ['the library entry', 'index.ts', "export { renderLine } from './render/render-line.js';"],
    ['a rule in words that names no module', 'wire/framing/x.ts', '// frames come from the transport, import nothing'],
  ])('allows %s', (_name, file, text) => {
    expect(layerProblems(file, text)).toEqual([]);
  });

  it('finds import circles, each once, type imports included', () => {
    const circles = importCircles([
      { file: 'wire/a.ts', text: "import { b } from './b.js';" },
      { file: 'wire/b.ts', text: "import type { C } from '../observer/c.js';" },
      { file: 'observer/c.ts', text: "export { a } from '../wire/a.js';\nimport { d } from './d.js';" },
      { file: 'observer/d.ts', text: "import { c } from './c.js';\nimport { x } from 'node:fs';" },
      { file: 'observer/e.ts', text: "import { d } from './d.js';\nimport { b } from '../wire/b.js';" },
    ]);
    expect(circles).toEqual([
      ['observer/c.ts', 'observer/d.ts'],
      ['observer/c.ts', 'wire/a.ts', 'wire/b.ts'],
    ]);
  });

  it('finds no circle where imports only run one way', () => {
    expect(
      importCircles([
        { file: 'a.ts', text: "import { b } from './x/b.js';\nimport { c } from './x/c.js';" },
        { file: 'x/b.ts', text: "import { c } from './c.js';" },
        { file: 'x/c.ts', text: '' },
      ]),
    ).toEqual([]);
  });

  it('reads the names of the types a module exports', () => {
    const text =
      'export interface A {}\nexport type B = 1;\nexport class C {}\nexport abstract class D {}\nexport function e() {}\nexport const f = 1;\ninterface G {}\n  export type H = 2;';
    expect(exportedTypeNames(text)).toEqual(['A', 'B', 'C', 'D']);
    expect(
      sharedNames([
        { file: 'x/a.ts', names: ['A', 'B'] },
        { file: 'y/a.ts', names: ['A'] },
        { file: 'z.ts', names: ['C', 'C'] },
      ]),
    ).toEqual({ A: ['x/a.ts', 'y/a.ts'] });
  });

  it('reads every way a module is loaded', () => {
    const text = "import a from './a.js';\nimport type { B } from './b.js';\nexport { c } from './c.js';\nimport './d.js';\nawait import('./e.js');";
    expect(modulesOf(text).uses.map(({ specifier, how }) => `${how} ${specifier}`)).toEqual([
      'import ./a.js',
      'import ./b.js',
      'export ./c.js',
      'side-effect ./d.js',
      'dynamic ./e.js',
    ]);
  });
});
