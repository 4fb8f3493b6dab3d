import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

// The app's own import graph, for the layering test: every import form counts (value and type
// imports, re-exports, dynamic imports, `@/` with or without a trailing path, relative paths).

export const root = resolve(import.meta.dirname, '..', '..');

const SOURCE_DIRS = ['app', 'components', 'lib', 'tools', 'widgets'];
const EXTENSIONS = ['.ts', '.tsx', '/index.ts', '/index.tsx'];

/** `typeOnly`: every name it imports is a type (`import type`, or `type` on each name). */
export type Edge = { from: string; to: string; specifier: string; typeOnly: boolean };

export function sourceFiles(): string[] {
  return SOURCE_DIRS.flatMap((dir) =>
    readdirSync(join(root, dir), { withFileTypes: true, recursive: true })
      .filter((entry) => entry.isFile() && /\.(ts|tsx)$/.test(entry.name))
      .filter((entry) => !/\.test(-d)?\.tsx?$/.test(entry.name))
      .map((entry) => relative(root, join(entry.parentPath, entry.name))),
  ).concat(['proxy.ts', 'instrumentation.ts', 'instrumentation-client.ts']);
}

/** Every module specifier a file names, found by TypeScript's own pre-processor. */
export function specifiersOf(source: string): string[] {
  const info = ts.preProcessFile(source, true, true);
  return info.importedFiles.map((file) => file.fileName);
}

/** The specifiers a file imports or re-exports for their types alone. */
export function typeOnlySpecifiers(source: string): Set<string> {
  const file = ts.createSourceFile('file.tsx', source, ts.ScriptTarget.Latest);
  const found = new Set<string>();
  for (const statement of file.statements) {
    if (!('moduleSpecifier' in statement) || !statement.moduleSpecifier) continue;
    const specifier = (statement.moduleSpecifier as ts.StringLiteral).text;
    if (ts.isImportDeclaration(statement) && isTypeOnlyImport(statement.importClause)) {
      found.add(specifier);
    }
    if (ts.isExportDeclaration(statement) && statement.isTypeOnly) found.add(specifier);
  }
  return found;
}

function isTypeOnlyImport(clause: ts.ImportClause | undefined): boolean {
  if (clause === undefined) return false; // a side-effect import runs the module
  if (clause.isTypeOnly) return true;
  const bindings = clause.namedBindings;
  return (
    clause.name === undefined &&
    bindings !== undefined &&
    ts.isNamedImports(bindings) &&
    bindings.elements.length > 0 &&
    bindings.elements.every((element) => element.isTypeOnly)
  );
}

/** The repository file a specifier names, or undefined for a package or a built-in. */
export function resolveSpecifier(from: string, specifier: string): string | undefined {
  let base: string;
  if (specifier === '@' || specifier.startsWith('@/')) base = join(root, specifier.slice(2));
  else if (specifier.startsWith('.')) base = resolve(root, dirname(from), specifier);
  else return undefined;
  base = base.replace(/\/$/, '');
  const found = ['', ...EXTENSIONS]
    .map((ending) => base + ending)
    .find((path) => existsSync(path) && statSync(path).isFile());
  if (found === undefined) throw new Error(`${from}: cannot resolve ${specifier}`);
  return relative(root, found);
}

export function importGraph(files = sourceFiles()): Edge[] {
  return files.flatMap((from) => {
    const source = readFileSync(join(root, from), 'utf8');
    const typeOnly = typeOnlySpecifiers(source);
    return specifiersOf(source).flatMap((specifier) => {
      const to = resolveSpecifier(from, specifier);
      return to === undefined ? [] : [{ from, to, specifier, typeOnly: typeOnly.has(specifier) }];
    });
  });
}

/** Strongly connected groups of more than one file, or a file importing itself (Tarjan). */
export function cycles(edges: Edge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const { from, to } of edges) next.set(from, [...(next.get(from) ?? []), to]);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let counter = 0;
  const visit = (node: string) => {
    index.set(node, counter);
    low.set(node, counter);
    counter += 1;
    stack.push(node);
    onStack.add(node);
    for (const target of next.get(node) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(node, Math.min(low.get(node) as number, low.get(target) as number));
      } else if (onStack.has(target)) {
        low.set(node, Math.min(low.get(node) as number, index.get(target) as number));
      }
    }
    if (low.get(node) === index.get(node)) {
      const group: string[] = [];
      let member: string;
      do {
        member = stack.pop() as string;
        onStack.delete(member);
        group.push(member);
      } while (member !== node);
      const selfLoop = (next.get(node) ?? []).includes(node);
      if (group.length > 1 || selfLoop) found.push(group.sort());
    }
  };
  for (const node of next.keys()) if (!index.has(node)) visit(node);
  return found;
}
