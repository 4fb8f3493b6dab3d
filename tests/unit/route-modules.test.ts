import { describe, expect, it } from 'vitest';
import { API_ROUTES } from '@/lib/http/api-routes';
import { ROUTE_METHODS, type RouteHandler } from '@/lib/http/route-handlers';
import { request } from '@/tests/helpers/routes';

// The route modules as Next loads them: each must answer every method Next hands a module, or
// Next answers for it (HEAD by running GET, OPTIONS with a 204, the rest with an empty 405).
const modules = import.meta.glob<Record<string, unknown>>('/app/api/**/route.ts', { eager: true });

/** The table's path of a module's file: `app/api/sessions/[id]/route.ts` → `/api/sessions/{id}`. */
const tablePath = (file: string) =>
  file
    .replace(/^\/app/, '')
    .replace(/\/route\.ts$/, '')
    .replace(/\[(\w+)\]/g, '{$1}');

describe('the API route modules', () => {
  it('are one per route, and the catch-all', () => {
    expect(Object.keys(modules).map(tablePath).sort()).toEqual(
      [...API_ROUTES.map(({ path }) => path), '/api/[...path]'].sort(),
    );
  });

  it('each export a handler for every method Next hands a module', () => {
    for (const [file, module] of Object.entries(modules)) {
      for (const method of ROUTE_METHODS) {
        expect(typeof module[method], `${file} ${method}`).toBe('function');
      }
    }
  });

  it('answer the methods a route lacks with 405 in JSON, its methods in Allow', async () => {
    for (const route of API_ROUTES) {
      const module = modules[`/app${route.path.replace(/\{(\w+)\}/g, '[$1]')}/route.ts`];
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
          expect((await response.json()).error.code).toBe('method_not_allowed');
        }
      }
    }
  });
});
