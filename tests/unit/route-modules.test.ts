import { describe, expect, it } from 'vitest';
import { API_ROUTES } from '@/lib/http/api-routes';
import { ROUTE_METHODS, type RouteHandler } from '@/lib/http/route-handlers';
import { request } from '@/tests/helpers/routes';

// The route modules as Next loads them: each must answer every method Next hands a module, or
// Next answers for it (HEAD by running GET, OPTIONS with a 204, the rest with an empty 405).
const files = import.meta.glob<Record<string, unknown>>('/app/api/**/route.ts', { eager: true });

/** Each module by its folder as the table writes it: `app/api/sessions/[id]` → `/api/sessions/{id}`. */
const modules = new Map(
  Object.entries(files).map(([file, module]) => [
    file
      .replace(/^\/app/, '')
      .replace(/\/route\.ts$/, '')
      .replace(/\[(\w+)\]/g, '{$1}'),
    module,
  ]),
);

describe('the API route modules', () => {
  it('are one per route, and the catch-all', () => {
    expect([...modules.keys()].sort()).toEqual(
      [...API_ROUTES.map(({ path }) => path), '/api/[...path]'].sort(),
    );
  });

  it('each export a handler for every method Next hands a module', () => {
    for (const [path, module] of modules) {
      for (const method of ROUTE_METHODS) {
        expect(typeof module[method], `${path} ${method}`).toBe('function');
      }
    }
  });

  // The message names the path the module gave routeHandlers: its folder's, or this fails.
  it('answer the methods a route lacks with 405 in JSON, its methods in Allow', async () => {
    for (const route of API_ROUTES) {
      const module = modules.get(route.path);
      const path = route.path.replace(/\{\w+\}/g, 'abc');
      const missing = ROUTE_METHODS.filter((method) => !route.methods.some((m) => m === method));
      expect(missing.length, route.path).toBeGreaterThan(0);
      for (const method of missing) {
        const handler = module?.[method] as RouteHandler<unknown>;
        const response = await handler(request(method, path), { params: Promise.resolve({}) });
        expect(response.status, `${method} ${route.path}`).toBe(405);
        expect(response.headers.get('allow'), `${method} ${route.path}`).toBe(
          route.methods.join(', '),
        );
        if (method !== 'HEAD') {
          expect(await response.json()).toEqual({
            error: {
              code: 'method_not_allowed',
              message: `${method} is not allowed on ${route.path}; use ${route.methods.join(', ')}.`,
            },
          });
        }
      }
    }
  });
});
