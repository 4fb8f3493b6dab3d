/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // `/api/sessions/` must reach the proxy, which answers it in JSON, not be redirected (308)
  // with an HTML body.
  skipTrailingSlashRedirect: true,
  // The Postgres drivers are server-only and load native/WASM code at run time.
  serverExternalPackages: ['@electric-sql/pglite', 'pg'],
  // Migrations are read from disk at start-up; make sure deployments carry them.
  outputFileTracingIncludes: { '/**': ['./lib/db/migrations/**/*'] },
  // Static files skip the proxy, which gives every other response its security headers; a
  // script or style must still never be taken for another type.
  headers: async () => [
    {
      source: '/:path(_next/static/.*|favicon.ico)',
      headers: [{ key: 'X-Content-Type-Options', value: 'nosniff' }],
    },
  ],
};

export default nextConfig;
