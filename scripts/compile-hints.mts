// Marks the scripts a built page loads first, and the markdown renderer, for eager compilation
// (docs/DESIGN.md, "Compiled as they stream"); `scripts/add-compile-hints.mts` runs it at the
// end of `npm run build`.
//
// A browser compiles a function the first time it is called. Turbopack's chunks are lists of
// module factories, and a page calls its first load's as it starts: their compiling ran on the
// page's main thread, inside its long tasks (in a Chromium trace of a chat opening, 30–45 ms of
// a 60 ms task). A script that starts with V8's compile hint `//# allFunctionsCalledOnLoad` is
// compiled whole while it streams in, on a background thread, at the cost of compiling the
// functions a page never calls too. To other browsers the hint is a comment. Streamdown's chunk,
// the bulk of the markdown renderer a page loads when its first answer shows, is evaluated in
// one task: compiled lazily, 41–59 ms of the main thread's CPU; hinted, 15–25 ms (and some 80 ms
// on a background thread). Chunks loaded later still (diagrams, maths) are left to compile lazily.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';

export const HINT = '//# allFunctionsCalledOnLoad\n';

type ClientReferenceManifest = { entryJSFiles: Record<string, string[]> };

/**
 * The entry scripts of the build, as paths in `nextDir`: the build manifest's root scripts,
 * which every page loads, and each page's and its layouts' own, from its client reference
 * manifest.
 */
function entryScripts(nextDir: string): string[] {
  const build = JSON.parse(readFileSync(join(nextDir, 'build-manifest.json'), 'utf8')) as {
    rootMainFiles: string[];
  };
  const scripts = new Set(build.rootMainFiles);
  for (const path of clientReferenceManifests(join(nextDir, 'server', 'app'))) {
    // Each is a script that sets `globalThis.__RSC_MANIFEST[page]`.
    const context = {
      globalThis: {} as { __RSC_MANIFEST?: Record<string, ClientReferenceManifest> },
    };
    runInNewContext(readFileSync(path, 'utf8'), context);
    for (const page of Object.values(context.globalThis.__RSC_MANIFEST ?? {})) {
      for (const files of Object.values(page.entryJSFiles))
        for (const file of files) scripts.add(file);
    }
  }
  return [...scripts];
}

function* clientReferenceManifests(directory: string): Generator<string> {
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) yield* clientReferenceManifests(path);
    else if (entry.name.endsWith('_client-reference-manifest.js')) yield path;
  }
}

/** What marks Streamdown's chunk: Streamdown names its elements by it. */
export const RENDERER_MARK = 'data-streamdown';

/** A source map comment, on the script's last line (a library may hold the text elsewhere). */
const SOURCE_MAP = /\n\/\/# sourceMappingURL=\S+\s*$/;

/** The chunks of the markdown renderer that hold Streamdown: those that name its elements. */
function rendererScripts(nextDir: string): string[] {
  const chunks = join('static', 'chunks');
  return readdirSync(join(nextDir, chunks))
    .filter((name) => name.endsWith('.js'))
    .map((name) => join(chunks, name))
    .filter((file) => readFileSync(join(nextDir, file), 'utf8').includes(RENDERER_MARK));
}

/**
 * Puts the hint first in each entry script, and in the markdown renderer's, that lacks it;
 * returns how many it changed. A build without entry scripts or without the renderer, or with a
 * source map for one of them (a line put first would shift what it maps), is not one this was
 * written for: it throws.
 */
export function hintScripts(nextDir: string): number {
  const entries = entryScripts(nextDir);
  if (entries.length === 0) throw new Error(`No entry scripts in ${nextDir}'s manifests.`);
  const renderer = rendererScripts(nextDir);
  if (renderer.length === 0) {
    throw new Error(`No chunk in ${nextDir} names ${RENDERER_MARK}: no markdown renderer.`);
  }
  let changed = 0;
  for (const file of new Set([...entries, ...renderer])) {
    const path = join(nextDir, file);
    const code = readFileSync(path, 'utf8');
    if (code.startsWith(HINT)) continue;
    if (SOURCE_MAP.test(code)) {
      throw new Error(`${file} has a source map: the hint would shift its lines.`);
    }
    writeFileSync(path, HINT + code);
    changed++;
  }
  return changed;
}
