import { describe, expect, it, vi } from 'vitest';
import { HttpError } from './errors';
import { noRouteHandlers, ROUTE_METHODS, routeHandlers } from './route-handlers';

function send(method: string, host = 'localhost:3000'): Request {
  return new Request(`http://${host}/api/sessions/abc`, { method, headers: { host } });
}

async function answer(response: Response) {
  return {
    status: response.status,
    allow: response.headers.get('allow'),
    nosniff: response.headers.get('x-content-type-options'),
    csp: response.headers.get('content-security-policy'),
    body: response.status === 204 ? null : await response.json(),
  };
}

const context = { params: Promise.resolve({ id: 'abc' }) };
type Context = typeof context;

const noContent = async () => new Response(null, { status: 204 });
const turnActive = async (): Promise<Response> => {
  throw new HttpError(409, 'turn_active', 'A turn runs.');
};

describe('routeHandlers', () => {
  it('runs the handler of a method the route has, and its answer carries the security headers', async () => {
    const PATCH = vi.fn(async (_request: Request, { params }: Context) =>
      Response.json({ id: (await params).id }),
    );
    const handlers = routeHandlers<'/api/sessions/{id}', Context>('/api/sessions/{id}', {
      GET: noContent,
      PATCH,
      DELETE: noContent,
    });
    expect(await answer(await handlers.PATCH(send('PATCH'), context))).toEqual({
      status: 200,
      allow: null,
      nosniff: 'nosniff',
      csp: expect.stringContaining("frame-ancestors 'none'"),
      body: { id: 'abc' },
    });
    expect(PATCH).toHaveBeenCalledOnce();
  });

  it('answers an HttpError thrown by a handler in JSON', async () => {
    const handlers = routeHandlers<'/api/sessions/{id}/stop', Context>('/api/sessions/{id}/stop', {
      POST: turnActive,
    });
    expect(await answer(await handlers.POST(send('POST'), context))).toMatchObject({
      status: 409,
      nosniff: 'nosniff',
      body: { error: { code: 'turn_active', message: 'A turn runs.' } },
    });
  });

  it('answers every method the route lacks with 405 in JSON, the route methods in Allow', async () => {
    const GET = vi.fn(async () => Response.json({}));
    const handlers = routeHandlers<'/api/sessions/{id}/events', Context>(
      '/api/sessions/{id}/events',
      {
        GET,
      },
    );
    for (const method of ['HEAD', 'OPTIONS', 'POST', 'PUT', 'PATCH', 'DELETE'] as const) {
      expect(await answer(await handlers[method](send(method), context)), method).toEqual({
        status: 405,
        allow: 'GET',
        nosniff: 'nosniff',
        csp: expect.any(String),
        body: {
          error: {
            code: 'method_not_allowed',
            message: `${method} is not allowed on /api/sessions/{id}/events; use GET.`,
          },
        },
      });
    }
    // HEAD above did not run GET, as Next would: an event stream nobody reads.
    expect(GET).not.toHaveBeenCalled();
  });

  it('refuses a name this server does not answer to before any handler runs', async () => {
    const POST = vi.fn(async () => Response.json({}));
    const handlers = routeHandlers('/api/sessions', { GET: POST, POST });
    expect(await answer(await handlers.POST(send('POST', 'evil.example')))).toMatchObject({
      status: 421,
      nosniff: 'nosniff',
      body: { error: { code: 'host_not_allowed' } },
    });
    expect(POST).not.toHaveBeenCalled();
  });
});

describe('noRouteHandlers', () => {
  it('answers every method with 404 in JSON', async () => {
    for (const method of ROUTE_METHODS) {
      expect(await answer(await noRouteHandlers[method](send(method))), method).toMatchObject({
        status: 404,
        nosniff: 'nosniff',
        body: { error: { code: 'not_found' } },
      });
    }
  });

  it('refuses a name this server does not answer to first', async () => {
    expect((await noRouteHandlers.GET(send('GET', 'evil.example'))).status).toBe(421);
  });
});
