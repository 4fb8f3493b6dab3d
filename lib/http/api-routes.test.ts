import { describe, expect, it } from 'vitest';
import { API_ROUTES, isApiPath, matchApiRoute, refuseApiRequest } from './api-routes';

// The table against app/api/**/route.ts: tests/unit/route-modules.test.ts, which loads them.

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
