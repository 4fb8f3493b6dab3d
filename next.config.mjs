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
};

export default nextConfig;
