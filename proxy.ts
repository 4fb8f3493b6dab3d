import { type NextRequest, NextResponse } from 'next/server';
import { IDENTITY_COOKIE, newOwnerToken, ownerOf } from '@/lib/auth/identity';
import { allowedHosts, refuseHost } from '@/lib/http/allowed-hosts';
import { isApiPath, refuseApiRequest } from '@/lib/http/api-routes';
import { refusePagePath } from '@/lib/http/request-path';
import { securityHeadersFor, withHeaders } from '@/lib/http/security-headers';

/**
 * The edge of every request but static files. It refuses a host name this server does not
 * answer to and what no handler can take (see lib/http/api-routes.ts), gives every response
 * its security headers with a fresh script nonce (Next finds it in the request's CSP and puts
 * it on its own scripts), and gives every browser an anonymous owner identity on its first
 * visit. The cookie is added to the request too, so the page rendered for this very request
 * already knows its owner.
 */
export function proxy(request: NextRequest) {
  const { pathname } = request.nextUrl;
  const api = isApiPath(pathname);
  const security = securityHeadersFor(request);
  // What nothing behind the proxy should see is answered here, before Next tries to route it.
  const refusal =
    refuseHost(request.headers, api, allowedHosts()) ??
    (api ? refuseApiRequest(request.method, pathname) : refusePagePath(pathname));
  if (refusal) return withHeaders(refusal, security);
  request.headers.set('content-security-policy', security['content-security-policy']);
  if (
    request.headers.has('authorization') ||
    ownerOf(request.cookies.get(IDENTITY_COOKIE)?.value)
  ) {
    return withHeaders(NextResponse.next({ request: { headers: request.headers } }), security);
  }
  const token = newOwnerToken();
  request.cookies.set(IDENTITY_COOKIE, token);
  const response = NextResponse.next({ request: { headers: request.headers } });
  response.cookies.set(IDENTITY_COOKIE, token, {
    httpOnly: true,
    sameSite: 'lax',
    secure: request.nextUrl.protocol === 'https:',
    path: '/',
    maxAge: 60 * 60 * 24 * 400,
  });
  return withHeaders(response, security);
}

export const config = {
  matcher: ['/((?!_next/static|_next/image|favicon.ico).*)'],
};
