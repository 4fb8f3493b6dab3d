import { NextResponse } from 'next/server';
import { IDENTITY_COOKIE, identityCookieOptions } from '@/lib/auth/identity';
import { getDb } from '@/lib/db/client';
import { routeHandlers } from '@/lib/http/route-handlers';
import { isHttps } from '@/lib/http/security-headers';
import { rotateIdentity } from '@/lib/sessions/credentials-service';

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = routeHandlers(
  '/api/identity/rotate',
  {
    POST: async (request) => {
      const cookie = await rotateIdentity(await getDb(), request);
      const response = new NextResponse(null, { status: 204 });
      response.cookies.set(IDENTITY_COOKIE, cookie, identityCookieOptions(isHttps(request)));
      return response;
    },
  },
);
