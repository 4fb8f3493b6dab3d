// Makes the database a new PGlite data folder starts from (see `pgliteTemplate` in
// lib/db/client.ts). `npm run build` runs it before `next build`, which copies it into the
// standalone output.
import { makePgliteTemplate, pgliteTemplate } from '../lib/db/client';

const started = performance.now();
await makePgliteTemplate();
console.log(
  `PGlite template made in ${pgliteTemplate} (${Math.round(performance.now() - started)} ms)`,
);
