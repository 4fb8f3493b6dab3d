import { errorResponse } from './errors';
import { decodes, UNDECODABLE_PATH } from './request-path';

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/**
 * Every route under /api: its path as an OpenAPI template (`{name}` is one path segment) and
 * the methods it handles (its module answers the others with 405; see route-handlers.ts). A
 * unit test holds this table to app/api/**\/route.ts.
 */
export const API_ROUTES = [
  { path: '/api/identity/rotate', methods: ['POST'] },
  { path: '/api/models', methods: ['GET'] },
  { path: '/api/openapi.json', methods: ['GET'] },
  { path: '/api/sessions', methods: ['GET', 'POST'] },
  { path: '/api/sessions/{id}', methods: ['GET', 'PATCH', 'DELETE'] },
  { path: '/api/sessions/{id}/events', methods: ['GET'] },
  { path: '/api/sessions/{id}/fork', methods: ['POST'] },
  { path: '/api/sessions/{id}/messages', methods: ['GET', 'POST'] },
  { path: '/api/sessions/{id}/stop', methods: ['POST'] },
  { path: '/api/sessions/{id}/stream', methods: ['GET'] },
  { path: '/api/sessions/{id}/widgets/{toolCallId}/actions', methods: ['POST'] },
  { path: '/api/tokens', methods: ['GET', 'POST'] },
  { path: '/api/tokens/{id}', methods: ['DELETE'] },
] as const satisfies readonly { path: string; methods: readonly HttpMethod[] }[];

export type ApiRoute = (typeof API_ROUTES)[number];

export function isApiPath(pathname: string): boolean {
  return pathname === '/api' || pathname.startsWith('/api/');
}

/**
 * What the request to an /api `pathname` (as it came, percent-encoded) finds: a route, or why
 * there is none. Every segment must decode (Next would otherwise answer a plain-text 500);
 * fixed segments are compared as they came, so `/api/%73essions` is no route.
 */
export function matchApiRoute(
  pathname: string,
): { route: ApiRoute } | { invalid: 'encoding' } | { invalid: 'unknown' } {
  if (!decodes(pathname)) return { invalid: 'encoding' };
  const segments = pathname.split('/');
  const route = API_ROUTES.find(({ path }) => {
    const pattern = path.split('/');
    return (
      pattern.length === segments.length &&
      pattern.every((part, index) => {
        const segment = segments[index] as string;
        return part.startsWith('{') ? segment !== '' : part === segment;
      })
    );
  });
  return route ? { route } : { invalid: 'unknown' };
}

/**
 * The JSON answer to an /api request that no handler can take — a path that does not decode
 * (400), no such route (404), or a method the route lacks (405 with `Allow`) — or undefined
 * when a handler takes it. HEAD and OPTIONS are refused like any other missing method: Next
 * would run the GET handler for a HEAD and drop its body unread, which leaves an event stream
 * subscribed with nobody listening.
 */
export function refuseApiRequest(method: string, pathname: string): Response | undefined {
  const match = matchApiRoute(pathname);
  if ('invalid' in match) {
    return match.invalid === 'encoding'
      ? errorResponse(400, 'invalid_path', UNDECODABLE_PATH)
      : noSuchRoute();
  }
  const methods: readonly string[] = match.route.methods;
  return methods.includes(method) ? undefined : methodNotAllowed(match.route, method);
}

/** The JSON answer to a path no API route has: 404. */
export function noSuchRoute(): Response {
  return errorResponse(404, 'not_found', 'There is no API route at this path.');
}

/** The JSON answer to `method` on `route`, which lacks it: 405, with the route's in `Allow`. */
export function methodNotAllowed(route: ApiRoute, method: string): Response {
  const allow = route.methods.join(', ');
  const response = errorResponse(
    405,
    'method_not_allowed',
    `${method} is not allowed on ${route.path}; use ${allow}.`,
  );
  response.headers.set('allow', allow);
  return response;
}
