import { allowedHosts, refuseHost } from './allowed-hosts';
import { API_ROUTES, type ApiRoute, methodNotAllowed, noSuchRoute } from './api-routes';
import { handled } from './errors';
import { securityHeadersFor, withHeaders } from './security-headers';

/** The methods Next hands to a route module: a module answers each one. */
export const ROUTE_METHODS = ['GET', 'HEAD', 'OPTIONS', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

export type RouteMethod = (typeof ROUTE_METHODS)[number];

export type RouteHandler<Context> = (request: Request, context: Context) => Promise<Response>;

type MethodsOf<Path extends ApiRoute['path']> = Extract<
  ApiRoute,
  { path: Path }
>['methods'][number];

/**
 * The API's edge, which the proxy leaves to the handlers (see proxy.ts: running it cost every
 * API request 1-3 ms): a request to a name this server does not answer to is refused, and every
 * answer carries the security headers.
 */
async function atTheEdge(request: Request, answer: () => Promise<Response>): Promise<Response> {
  const response = refuseHost(request.headers, true, allowedHosts()) ?? (await answer());
  return withHeaders(response, securityHeadersFor(request));
}

/**
 * A route module's exports for the API route at `path`: `handlers` for the methods the route
 * table gives it (the types hold the two together), a 405 in JSON for every other method. Next
 * would otherwise answer those itself: HEAD by running GET (an event stream left subscribed
 * with nobody reading), OPTIONS with a 204, the rest with an empty 405. `Context` is `void`
 * unless a handler names it: a route without parameters ignores the context Next passes, and a
 * test calls its handlers with the request alone.
 */
export function routeHandlers<Path extends ApiRoute['path'], Context = void>(
  path: Path,
  handlers: { [Method in MethodsOf<Path>]: RouteHandler<Context> },
): Record<RouteMethod, RouteHandler<Context>> {
  const route = API_ROUTES.find((candidate) => candidate.path === path) as ApiRoute;
  const given: Partial<Record<RouteMethod, RouteHandler<Context>>> = handlers;
  return everyMethod((method) => {
    const handler = given[method];
    return handler ? handled(handler) : async () => methodNotAllowed(route, method);
  });
}

/** The exports of the module that takes every /api path no route has: a 404 in JSON. */
export const noRouteHandlers = everyMethod<void>(() => async () => noSuchRoute());

/** A handler for each of Next's methods, `answer`'s for it, behind the API's edge. */
function everyMethod<Context>(
  answer: (method: RouteMethod) => RouteHandler<Context>,
): Record<RouteMethod, RouteHandler<Context>> {
  return Object.fromEntries(
    ROUTE_METHODS.map((method) => {
      const respond = answer(method);
      return [
        method,
        (request: Request, context: Context) => atTheEdge(request, () => respond(request, context)),
      ];
    }),
  ) as Record<RouteMethod, RouteHandler<Context>>;
}
