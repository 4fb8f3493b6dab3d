/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  // `.next/standalone` holds a server.js with only the files it needs: what the Docker image
  // and the standalone e2e test run. `next start` still works from the full checkout.
  output: 'standalone',
  poweredByHeader: false,
  // `/api/sessions/` must reach the proxy, which answers it in JSON, not be redirected (308)
  // with an HTML body.
  skipTrailingSlashRedirect: true,
  // The Postgres drivers are server-only and load native/WASM code at run time.
  serverExternalPackages: ['@electric-sql/pglite', 'pg'],
  // Streamdown imports rehype-raw, and parse5 with it (about 160 KiB of the markdown renderer's
  // 460 KiB, before gzip), which Quanta never uses: raw HTML in a message shows as text.
  turbopack: { resolveAlias: { 'rehype-raw': './components/chat/no-rehype-raw.ts' } },
  // Read from disk at run time, by paths the tracer cannot follow: the migrations, PGlite's
  // thread and the database a new data folder starts from (at start-up, from the working
  // directory), and PGlite's Postgres build, which it loads beside its own script.
  outputFileTracingIncludes: {
    '/**': [
      './lib/db/migrations/**/*',
      './lib/db/pglite-worker.mjs',
      './lib/db/pglite-template.tar',
      './node_modules/@electric-sql/pglite/dist/*.wasm',
      './node_modules/@electric-sql/pglite/dist/*.data',
    ],
  },
  // Load a route's code when it is first asked for, not all of it at start-up: an idle server
  // then holds only what it has served (about 18 MiB less after start-up); the first request to
  // each route pays for the load once.
  experimental: { preloadEntriesOnStart: false },
  // Static files get their headers from no proxy and no route module: a script or style must
  // still never be taken for another type.
  headers: async () => [
    {
      source: '/:path(_next/static/.*|favicon.ico)',
      headers: [{ key: 'X-Content-Type-Options', value: 'nosniff' }],
    },
  ],
};

export default nextConfig;
