import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');

function sourceFiles(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.(ts|tsx)$/.test(entry.name))
    .map((entry) => relative(root, join(entry.parentPath, entry.name)));
}

// Type-only imports are erased at build time, so they may cross layers (shared shapes).
function importsOf(file: string): string[] {
  const source = readFileSync(join(root, file), 'utf8').replace(
    /import\s+type\s[^;]*?from\s+['"][^'"]+['"]/g,
    '',
  );
  const specifiers = source.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)['"]([^'"]+)['"]/g);
  return [...specifiers].map((match) => match[1] as string);
}

function violations(dir: string, forbidden: RegExp): string[] {
  return violationsIn(sourceFiles(dir), forbidden);
}

function violationsIn(files: string[], forbidden: RegExp): string[] {
  return files.flatMap((file) =>
    importsOf(file)
      .filter((specifier) => forbidden.test(specifier))
      .map((specifier) => `${file} imports ${specifier}`),
  );
}

describe('layering (docs/DESIGN.md, "What may import what")', () => {
  it('lib/ imports neither React nor Next', () => {
    expect(violations('lib', /^(react|react-dom|next|@ai-sdk\/react)(\/|$)/)).toEqual([]);
  });

  it('components/ never import server code', () => {
    expect(
      violations('components', /^(@\/lib\/(db|agent|auth|net)|node:|server-only$)|^@\/tools\//),
    ).toEqual([]);
  });

  it('no action handler reaches the browser: its widget code imports no actions module', () => {
    const views = sourceFiles('widgets').filter((file) => file.endsWith('/view.tsx'));
    const browser = ['widgets/registry.ts', ...views, ...sourceFiles('components')];
    expect(violationsIn(browser, /(^|\/)actions$/)).toEqual([]);
  });

  it('lib/widgets imports nothing from lib/tools, not even a type: lib/tools imports its types', () => {
    const source = (file: string) => readFileSync(join(root, file), 'utf8');
    const fromTools = /from\s+['"](\.\.\/tools|@\/lib\/tools)['"/]/;
    expect(sourceFiles('lib/widgets').filter((file) => fromTools.test(source(file)))).toEqual([]);
  });

  it('lib/schema depends on nothing else in the app', () => {
    // Tools, widgets, HTTP and usage all validate through it: one import back would be a cycle.
    expect(violations('lib/schema', /^(\.\.\/|@\/)/)).toEqual([]);
  });

  it('lets a type-only import cross layers', () => {
    expect(importsOf('components/session-screen.tsx')).not.toContain('@/lib/protocol');
  });

  it('finds a forbidden import when one is there', () => {
    // Guards the scanner itself: a regression in importsOf would make the checks above vacuous.
    expect(importsOf('components/app-shell.tsx')).toContain('react');
  });
});
