import { AsyncLocalStorage } from 'node:async_hooks';

/** Whether Next runs the proxy of `config` for a request to `path`, as it is sent. */
export async function reachesProxy(config: { matcher: string[] }, path: string): Promise<boolean> {
  // Next's matcher test helper reads the AsyncLocalStorage its server installs.
  (globalThis as { AsyncLocalStorage?: unknown }).AsyncLocalStorage ??= AsyncLocalStorage;
  const { unstable_doesMiddlewareMatch } = await import('next/experimental/testing/server');
  return unstable_doesMiddlewareMatch({ config, url: `http://localhost:3000${path}` });
}
