// `npm run build` runs it after `next build`: marks the scripts a page runs as it loads for
// eager compilation (docs/DESIGN.md, "Compiled as they stream").
//
// A browser compiles a function the first time it is called. Turbopack's chunks are lists of
// module factories, and a page calls all of its first load's as it starts: their compiling ran
// on the page's main thread, inside its long tasks (in a Chromium trace of a chat opening,
// 30–45 ms of a 60 ms task). A script that starts with V8's compile hint
// `//# allFunctionsCalledOnLoad` is compiled whole while it streams in, on a background thread.
// To other browsers the hint is a comment. Chunks loaded later (the markdown renderer, diagrams,
// maths) are left as they are: compiled whole, they would compile functions a page may never call.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';

export const HINT = '//# allFunctionsCalledOnLoad\n';

type ClientReferenceManifest = { entryJSFiles: Record<string, string[]> };

/** The scripts, as paths in `nextDir`, that the built pages' HTML names. */
export function firstLoadScripts(nextDir: string): string[] {
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
  return [...scripts].filter((file) => file.endsWith('.js'));
}

function* clientReferenceManifests(directory: string): Generator<string> {
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) yield* clientReferenceManifests(path);
    else if (entry.name.endsWith('_client-reference-manifest.js')) yield path;
  }
}

/** Puts the hint first in each first-load script that lacks it; returns how many it changed. */
export function hintFirstLoad(nextDir: string): number {
  let changed = 0;
  for (const file of firstLoadScripts(nextDir)) {
    const path = join(nextDir, file);
    const code = readFileSync(path, 'utf8');
    if (code.startsWith(HINT)) continue;
    writeFileSync(path, HINT + code);
    changed++;
  }
  return changed;
}

if (import.meta.filename === process.argv[1]) {
  console.log(`Compile hint added to ${hintFirstLoad('.next')} first-load scripts.`);
}
