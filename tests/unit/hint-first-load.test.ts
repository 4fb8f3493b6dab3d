import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HINT, hintFirstLoad } from '../../scripts/hint-first-load.mjs';

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

const chunk = (name: string) => `(globalThis.TURBOPACK||[]).push(["${name}"]);\n`;
const read = (name: string) => readFileSync(join(nextDir, 'static/chunks', name), 'utf8');

beforeEach(() => {
  nextDir = mkdtempSync(join(tmpdir(), 'quanta-hint-'));
  write('build-manifest.json', JSON.stringify({ rootMainFiles: ['static/chunks/react.js'] }));
  write(
    'server/app/page_client-reference-manifest.js',
    manifest('/page', { '[project]/app/page': ['static/chunks/home.js', 'static/chunks/app.css'] }),
  );
  write(
    'server/app/c/[id]/page_client-reference-manifest.js',
    manifest('/c/[id]/page', {
      '[project]/app/layout': ['static/chunks/home.js'],
      '[project]/app/c/[id]/page': ['static/chunks/chat.js'],
    }),
  );
  for (const name of ['react.js', 'home.js', 'chat.js', 'markdown.js', 'app.css']) {
    write(`static/chunks/${name}`, chunk(name));
  }
});

afterEach(() => rmSync(nextDir, { recursive: true, force: true }));

describe('hintFirstLoad', () => {
  it('puts the compile hint first in every script a page names as it loads', () => {
    expect(hintFirstLoad(nextDir)).toBe(3);
    for (const name of ['react.js', 'home.js', 'chat.js']) {
      expect(read(name)).toBe(HINT + chunk(name));
    }
  });

  it('leaves scripts loaded later, and styles, as they are', () => {
    hintFirstLoad(nextDir);
    expect(read('markdown.js')).toBe(chunk('markdown.js'));
    expect(read('app.css')).toBe(chunk('app.css'));
  });

  it('adds the hint once, however often it runs', () => {
    hintFirstLoad(nextDir);
    expect(hintFirstLoad(nextDir)).toBe(0);
    expect(read('chat.js')).toBe(HINT + chunk('chat.js'));
  });
});
