import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { API_ROUTES, isApiPath, matchApiRoute, refuseApiRequest } from './api-routes';

const root = join(import.meta.dirname, '..', '..');

/**
 * Every route module under app/api but the catch-all of unknown paths: the path its folder gives
 * it, and the path it names to `routeHandlers` (whose types hold its handlers to the table).
 */
function routesOnDisk(): { path: string; named?: string }[] {
  return readdirSync(join(root, 'app', 'api'), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name === 'route.ts')
    .map((entry) => relative(join(root, 'app'), entry.parentPath).split(sep))
    .filter((directory) => !directory.includes('[...path]'))
    .map((directory) => {
      const path = `/${directory.map((part) => part.replace(/^\[(\w+)\]$/, '{$1}')).join('/')}`;
      const source = readFileSync(join(root, 'app', ...directory, 'route.ts'), 'utf8');
      return { path, named: /routeHandlers\(\s*'([^']+)'/.exec(source)?.[1] };
    });
}

const byPath = (a: { path: string }, b: { path: string }) => a.path.localeCompare(b.path);

describe('the API route table', () => {
  it('lists exactly the route modules in app/api, each naming its own path', () => {
    const table = API_ROUTES.map(({ path }) => ({ path, named: path }));
    expect(table.sort(byPath)).toEqual(routesOnDisk().sort(byPath));
  });

  it('reads a route module the way the check above relies on', () => {
    // Guards the scanner: if it found nothing, the check above could pass vacuously.
    expect(routesOnDisk()).toContainEqual({
      path: '/api/sessions/{id}',
      named: '/api/sessions/{id}',
    });
  });
});

describe('matchApiRoute', () => {
  it('finds a route with its parameters filled', () => {
    expect(matchApiRoute('/api/sessions/abc/widgets/call_1/actions')).toEqual({
      route: API_ROUTES.find((route) => route.path.endsWith('/actions')),
    });
    expect(matchApiRoute('/api/sessions')).toEqual({
      route: API_ROUTES.find((route) => route.path === '/api/sessions'),
    });
  });

  it('accepts any segment that decodes as a parameter', () => {
    expect(matchApiRoute('/api/sessions/%E2%9C%93/stop')).toHaveProperty('route.path');
  });

  it('refuses segments that are not valid percent-encoded UTF-8', () => {
    for (const path of [
      '/api/sessions/%C0%AF',
      '/api/sessions/%ZZ',
      '/api/sessions/%',
      '/api/sessions/%ED%A0%80/stop', // a lone surrogate, encoded
      '/api/nope/%E2%9C',
      '/api/sessions/AAAAAAAAAAAAAAAAAAAAAA/widgets/%00/actions', // a NUL would reach PostgreSQL
    ]) {
      expect(matchApiRoute(path), path).toEqual({ invalid: 'encoding' });
    }
  });

  it('knows no other path, nor an empty or encoded fixed segment', () => {
    for (const path of [
      '/api',
      '/api/nope',
      '/api/sessions/',
      '/api/sessions//stop',
      '/api/sessions/a/b',
      '/api/%73essions',
      '/api/sessions/a/widgets/b/actions/c',
    ]) {
      expect(matchApiRoute(path), path).toEqual({ invalid: 'unknown' });
    }
  });

  it('tells /api paths from pages', () => {
    expect(isApiPath('/api')).toBe(true);
    expect(isApiPath('/api/sessions')).toBe(true);
    expect(isApiPath('/apiary')).toBe(false);
    expect(isApiPath('/c/abc')).toBe(false);
  });
});

describe('refuseApiRequest', () => {
  async function answer(method: string, path: string) {
    const response = refuseApiRequest(method, path);
    if (!response) return undefined;
    return {
      status: response.status,
      type: response.headers.get('content-type'),
      allow: response.headers.get('allow'),
      body: await response.json(),
    };
  }

  it('lets a request through to a handler that takes it', async () => {
    expect(await answer('GET', '/api/models')).toBeUndefined();
    expect(await answer('DELETE', '/api/sessions/abc')).toBeUndefined();
    expect(await answer('POST', '/api/sessions/abc/widgets/x/actions')).toBeUndefined();
  });

  it('answers a malformed path with 400 invalid_path in JSON', async () => {
    expect(await answer('GET', '/api/sessions/%C0%AF')).toMatchObject({
      status: 400,
      type: 'application/json',
      body: { error: { code: 'invalid_path', message: expect.any(String) } },
    });
  });

  it('answers an unknown path with 404 not_found in JSON', async () => {
    for (const path of ['/api/nope', '/api/stop', '/api/sessions/x/y/z']) {
      expect(await answer('GET', path), path).toMatchObject({
        status: 404,
        type: 'application/json',
        body: { error: { code: 'not_found' } },
      });
    }
  });

  it('answers a missing method with 405, the route methods in Allow, in JSON', async () => {
    expect(await answer('PUT', '/api/sessions/abc')).toEqual({
      status: 405,
      type: 'application/json',
      allow: 'GET, PATCH, DELETE',
      body: {
        error: {
          code: 'method_not_allowed',
          message: 'PUT is not allowed on /api/sessions/{id}; use GET, PATCH, DELETE.',
        },
      },
    });
    expect(await answer('GET', '/api/sessions/abc/stop')).toMatchObject({
      status: 405,
      allow: 'POST',
    });
  });

  it('refuses HEAD and OPTIONS with 405 and Allow, also on a GET route', async () => {
    for (const method of ['HEAD', 'OPTIONS']) {
      expect(await answer(method, '/api/sessions/abc/events'), method).toMatchObject({
        status: 405,
        allow: 'GET',
        body: { error: { code: 'method_not_allowed' } },
      });
    }
  });
});
