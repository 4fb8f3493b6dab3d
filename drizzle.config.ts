import { defineConfig } from 'drizzle-kit';

// Generates the one set of migrations both drivers (PGlite and node-postgres) run.
export default defineConfig({
  dialect: 'postgresql',
  schema: './lib/db/schema.ts',
  out: './lib/db/migrations',
});
