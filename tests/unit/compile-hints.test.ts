import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HINT, hintScripts, RENDERER_MARK } from '../../scripts/compile-hints.mjs';

// A build's output as far as the script reads it: the root scripts in build-manifest.json, each
// page's own in its client reference manifest (a script, as Next writes it), and the chunks.
let nextDir: string;

function write(path: string, text: string) {
  mkdirSync(dirname(join(nextDir, path)), { recursive: true });
  writeFileSync(join(nextDir, path), text);
}

const manifest = (page: string, entryJSFiles: Record<string, string[]>) =>
  [
    'globalThis.__RSC_MANIFEST = globalThis.__RSC_MANIFEST || {};',
    `globalThis.__RSC_MANIFEST[${JSON.stringify(page)}] = ${JSON.stringify({ entryJSFiles })};`,
  ].join('\n');

const chunk = (name: string) =>
  name === 'markdown.js'
    ? `(globalThis.TURBOPACK||[]).push(["${name}",(e)=>e.jsx("p",{"${RENDERER_MARK}":"p"})]);\n`
    : `(globalThis.TURBOPACK||[]).push(["${name}"]);\n`;
const read = (name: string) => readFileSync(join(nextDir, 'static/chunks', name), 'utf8');

beforeEach(() => {
  nextDir = mkdtempSync(join(tmpdir(), 'quanta-hint-'));
  write('build-manifest.json', JSON.stringify({ rootMainFiles: ['static/chunks/react.js'] }));
  write(
    'server/app/page_client-reference-manifest.js',
    manifest('/page', { '[project]/app/page': ['static/chunks/home.js'] }),
  );
  write(
    'server/app/c/[id]/page_client-reference-manifest.js',
    manifest('/c/[id]/page', {
      '[project]/app/layout': ['static/chunks/home.js'],
      '[project]/app/c/[id]/page': ['static/chunks/chat.js'],
    }),
  );
  for (const name of ['react.js', 'home.js', 'chat.js', 'markdown.js', 'maths.js']) {
    write(`static/chunks/${name}`, chunk(name));
  }
});

afterEach(() => rmSync(nextDir, { recursive: true, force: true }));

describe('hintScripts', () => {
  it('puts the compile hint first in every entry script and the markdown renderer', () => {
    expect(hintScripts(nextDir)).toBe(4);
    for (const name of ['react.js', 'home.js', 'chat.js', 'markdown.js']) {
      expect(read(name)).toBe(HINT + chunk(name));
    }
  });

  it('leaves the other scripts a page loads later as they are', () => {
    hintScripts(nextDir);
    expect(read('maths.js')).toBe(chunk('maths.js'));
  });

  it('adds the hint once, however often it runs', () => {
    hintScripts(nextDir);
    expect(hintScripts(nextDir)).toBe(0);
    expect(read('chat.js')).toBe(HINT + chunk('chat.js'));
  });

  it('refuses a script with a source map, whose lines the hint would shift', () => {
    write('static/chunks/chat.js', `${chunk('chat.js')}//# sourceMappingURL=chat.js.map\n`);
    expect(() => hintScripts(nextDir)).toThrow('chat.js has a source map');
  });

  it('hints a script that only holds the text of a source map comment', () => {
    const code = `"//# sourceMappingURL=" + name;\n${chunk('chat.js')}`;
    write('static/chunks/chat.js', code);
    hintScripts(nextDir);
    expect(read('chat.js')).toBe(HINT + code);
  });

  it('refuses a build whose manifests name no scripts', () => {
    write('build-manifest.json', JSON.stringify({ rootMainFiles: [] }));
    rmSync(join(nextDir, 'server'), { recursive: true });
    mkdirSync(join(nextDir, 'server', 'app'), { recursive: true });
    expect(() => hintScripts(nextDir)).toThrow('No entry scripts');
  });

  it('refuses a build without the markdown renderer', () => {
    rmSync(join(nextDir, 'static/chunks/markdown.js'));
    expect(() => hintScripts(nextDir)).toThrow(`names ${RENDERER_MARK}: no markdown renderer`);
  });
});
