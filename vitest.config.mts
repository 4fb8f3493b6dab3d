import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    alias: {
      '@': fileURLToPath(new URL('./', import.meta.url)),
      // The marker throws outside React's server condition, which Next applies and Node does not:
      // here it is the empty module Next itself puts in its place on the server.
      'server-only': 'next/dist/compiled/server-only/empty.js',
    },
  },
  test: {
    include: [
      'lib/**/*.test.ts',
      'tools/**/*.test.ts',
      'components/**/*.test.{ts,tsx}',
      'widgets/**/*.test.{ts,tsx}',
      'tests/unit/**/*.test.{ts,tsx}',
      'bench/harness/**/*.test.ts',
    ],
    // Type tests (`*.test-d.ts`) run through tsc: a type that loosens fails the run.
    typecheck: { enabled: true, include: ['**/*.test-d.ts'] },
    environment: 'node',
    globalSetup: ['tests/setup/pglite-template.ts'],
    setupFiles: [
      'tests/setup/unpaced-demo.ts',
      'tests/setup/dom-matchers.ts',
      'tests/setup/next-after.ts',
    ],
    coverage: {
      provider: 'v8',
      include: ['lib/**/*.ts'],
      exclude: ['**/*.test.ts'],
      reporter: ['text-summary', 'json-summary'],
      // The tool contract is the heart of Quanta, and every tool, widget action and request body
      // is checked through lib/schema: every line and branch of both is tested.
      thresholds: {
        'lib/tools/**': { lines: 100, branches: 100, functions: 100, statements: 100 },
        'lib/schema/**': { lines: 100, branches: 100, functions: 100, statements: 100 },
      },
    },
  },
});
