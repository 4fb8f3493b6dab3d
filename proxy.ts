import { type NextRequest, NextResponse } from 'next/server';
import { cookieToIssue, IDENTITY_COOKIE, identityCookieOptions } from '@/lib/auth/identity';
import { getDb } from '@/lib/db/client';
import { allowedHosts, refuseHost } from '@/lib/http/allowed-hosts';
import { isApiPath, refuseApiRequest } from '@/lib/http/api-routes';
import { refusePagePath } from '@/lib/http/request-path';
import { isHttps, securityHeadersFor, withHeaders } from '@/lib/http/security-headers';

/**
 * The edge of every request but static files and most API requests. It refuses a host name this
 * server does not answer to and what no handler can take (see lib/http/api-routes.ts), gives every
 * response its security headers with a fresh script nonce (Next finds it in the request's CSP and
 * puts it on its own scripts), and gives every browser an anonymous owner identity on its first
 * page view (and a new one when its cookie was rotated elsewhere). The cookie is added to the
 * request too, so the page rendered for this very request already knows its owner. API routes
 * get none: without a valid credential they answer 401.
 *
 * An API path of plain segments skips the proxy: Next's run of it cost each such request 1-3 ms
 * (a turn's first text included), and its route module does the same checks itself (see
 * lib/http/route-handlers.ts; the catch-all app/api/[...path] answers the paths no route has).
 * What still comes here is what Next might fail on before any handler, a percent-escape (a
 * segment that does not decode makes Next answer a plain-text 500), and an empty segment,
 * which no route has.
 */
export async function proxy(request: NextRequest) {
  const { pathname } = request.nextUrl;
  const api = isApiPath(pathname);
  const security = securityHeadersFor(request);
  // What nothing behind the proxy should see is answered here, before Next tries to route it.
  const refusal =
    refuseHost(request.headers, api, allowedHosts()) ??
    (api ? refuseApiRequest(request.method, pathname) : refusePagePath(pathname));
  if (refusal) return withHeaders(refusal, security);
  request.headers.set('content-security-policy', security['content-security-policy']);
  const cookie = api ? undefined : await cookieToIssue(getDb, request.headers);
  if (cookie) request.cookies.set(IDENTITY_COOKIE, cookie);
  const response = NextResponse.next({ request: { headers: request.headers } });
  if (cookie) {
    response.cookies.set(IDENTITY_COOKIE, cookie, identityCookieOptions(isHttps(request)));
  }
  return withHeaders(response, security);
}

export const config = {
  matcher: ['/((?!_next/static|_next/image|favicon.ico|api/(?:[^%/]+/)*[^%/]+$).*)'],
};
