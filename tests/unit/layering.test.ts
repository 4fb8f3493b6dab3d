import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  cycles,
  type Edge,
  importGraph,
  resolveSpecifier,
  root,
  sourceFiles,
  specifiersOf,
  typeOnlySpecifiers,
} from '../helpers/import-graph';

// docs/DESIGN.md, "What may import what". Every import form counts: a type-only import is
// erased from the bundle, but it still couples the browser's code to the server's shapes.

const files = sourceFiles();
const edges = importGraph(files);
const packageImports = files.flatMap((from) =>
  specifiersOf(readFileSync(join(root, from), 'utf8'))
    .filter((specifier) => resolveSpecifier(from, specifier) === undefined)
    .map((specifier) => ({ from, specifier })),
);

/** Code that runs in the browser: components, widget views and schemas, the client registry. */
const isClient = (file: string) =>
  file.startsWith('components/') ||
  /^widgets\/[^/]+\/(view\.tsx|schema\.ts)$/.test(file) ||
  file === 'widgets/registry.ts';

/** What browser code may take from lib/: wire types, JSON Schema, the client side of widgets. */
const clientSafeLib = (file: string) =>
  /^lib\/(protocol|schema)\//.test(file) ||
  (file.startsWith('lib/widgets/') && !/^lib\/widgets\/(actions|server)/.test(file));

/**
 * The one import browser code may make of server code: a view's type-only import of its own
 * widget's actions, which types its `act` (erased from the bundle, it ships no handler).
 */
const typesOfOwnActions = ({ from, to, typeOnly }: Edge) =>
  typeOnly &&
  /^widgets\/[^/]+\/view\.tsx$/.test(from) &&
  to === from.replace('view.tsx', 'actions.ts');

const show = (list: Edge[]) => list.map(({ from, specifier }) => `${from} imports ${specifier}`);

function reachableFrom(starts: string[]): Map<string, string> {
  // Each reached file remembers who reached it first, so a failure names the path.
  const via = new Map<string, string>(starts.map((file) => [file, file]));
  const queue = [...starts];
  while (queue.length > 0) {
    const file = queue.shift() as string;
    for (const edge of edges.filter((e) => e.from === file && !typesOfOwnActions(e))) {
      if (!via.has(edge.to)) {
        via.set(edge.to, file);
        queue.push(edge.to);
      }
    }
  }
  return via;
}

describe('layering', () => {
  it('lib/ imports neither React nor Next', () => {
    const bad = packageImports.filter(
      ({ from, specifier }) =>
        from.startsWith('lib/') && /^(react|react-dom|next)(\/|$)/.test(specifier),
    );
    expect(bad).toEqual([]);
  });

  it('browser code takes from lib/ only wire types, schemas and client-safe widget code', () => {
    const bad = edges.filter(
      ({ from, to, ...edge }) =>
        isClient(from) &&
        !typesOfOwnActions({ from, to, ...edge }) &&
        ((to.startsWith('lib/') && !clientSafeLib(to)) ||
          to.startsWith('tools/') ||
          /^widgets\/[^/]+\/actions\.ts$/.test(to)),
    );
    expect(show(bad)).toEqual([]);
  });

  it('no server module is reachable from browser code, however indirectly', () => {
    const reached = reachableFrom(files.filter(isClient));
    const server = [...reached.keys()].filter(
      (file) =>
        (file.startsWith('lib/') && !clientSafeLib(file)) ||
        file.startsWith('tools/') ||
        /^widgets\/[^/]+\/actions\.ts$/.test(file),
    );
    expect(server.map((file) => `${file} (from ${reached.get(file)})`)).toEqual([]);
    const nodeOnly = packageImports.filter(
      ({ from, specifier }) =>
        reached.has(from) && (specifier.startsWith('node:') || specifier === 'server-only'),
    );
    expect(nodeOnly).toEqual([]);
  });

  it('browser code takes only types from the AI SDK and zod', () => {
    // Any value from `ai` (a single module that builds zod schemas as it loads) ships the
    // whole SDK, its gateway and zod to the page: docs/DESIGN.md, "The chat in the browser".
    const reached = reachableFrom(files.filter(isClient));
    const bad = [...reached.keys()].flatMap((from) => {
      const source = readFileSync(join(root, from), 'utf8');
      const typeOnly = typeOnlySpecifiers(source);
      return specifiersOf(source)
        .filter((specifier) => /^(ai|zod|@ai-sdk\/[^/]+)(\/|$)/.test(specifier))
        .filter((specifier) => !typeOnly.has(specifier))
        .map((specifier) => `${from} imports ${specifier}`);
    });
    expect(bad).toEqual([]);
  });

  it('lib/protocol and lib/schema depend on nothing else in the app', () => {
    const bad = edges.filter(
      ({ from, to }) =>
        (from.startsWith('lib/protocol/') && !to.startsWith('lib/protocol/')) ||
        (from.startsWith('lib/schema/') && !to.startsWith('lib/schema/')),
    );
    expect(show(bad)).toEqual([]);
  });

  it('lib/widgets never imports lib/tools: lib/tools takes its widget types from lib/widgets', () => {
    const bad = edges.filter(
      ({ from, to }) => from.startsWith('lib/widgets/') && to.startsWith('lib/tools/'),
    );
    expect(show(bad)).toEqual([]);
  });

  it('tools reach the app only through their context', () => {
    const bad = edges.filter(
      ({ from, to }) => from.startsWith('tools/') && /^lib\/(db|sessions)\//.test(to),
    );
    expect(show(bad)).toEqual([]);
  });

  it('has no import cycle', () => {
    expect(cycles(edges)).toEqual([]);
  });
});

describe('the import scanner', () => {
  // Guards the scanner itself: a blind spot here would make every rule above vacuous.
  it('sees every import form', () => {
    const source = [
      "import type { A } from '@/lib/protocol';",
      "import { type B, c } from '../lib/schema';",
      "export * from './d';",
      "export type { E } from '@/lib/widgets/';",
      "import './side-effect';",
      "const lazy = () => import('@/widgets/counter/view');",
      'import {\n  f,\n} from "@/lib/net";',
    ].join('\n');
    expect(specifiersOf(source).sort()).toEqual([
      '../lib/schema',
      './d',
      './side-effect',
      '@/lib/net',
      '@/lib/protocol',
      '@/lib/widgets/',
      '@/widgets/counter/view',
    ]);
  });

  it('tells a type-only import from one that loads the module', () => {
    const source = [
      "import type { A } from './a';",
      "import { type B } from './b';",
      "import { type C, d } from './c';",
      "import e from './e';",
      "import './f';",
      "export type { G } from './g';",
      "export { h } from './h';",
    ].join('\n');
    expect([...typeOnlySpecifiers(source)].sort()).toEqual(['./a', './b', './g']);
  });

  it('resolves the alias with and without a trailing slash, and relative paths', () => {
    expect(resolveSpecifier('components/x.tsx', '@/lib/schema')).toBe('lib/schema/index.ts');
    expect(resolveSpecifier('components/x.tsx', '@/lib/schema/')).toBe('lib/schema/index.ts');
    expect(resolveSpecifier('lib/agent/run-turn.ts', '../schema/validate')).toBe(
      'lib/schema/validate.ts',
    );
    expect(resolveSpecifier('lib/agent/run-turn.ts', 'ai')).toBeUndefined();
  });

  it('finds a cycle, including one of type imports only', () => {
    const edge = (from: string, to: string): Edge => ({ from, to, specifier: to, typeOnly: false });
    expect(cycles([edge('a', 'b'), edge('b', 'c'), edge('c', 'a'), edge('c', 'd')])).toEqual([
      ['a', 'b', 'c'],
    ]);
    expect(cycles([edge('a', 'b'), edge('b', 'd')])).toEqual([]);
  });
});
