import { NextResponse } from 'next/server';
import { IDENTITY_COOKIE, identityCookieOptions } from '@/lib/auth/identity';
import { getDb } from '@/lib/db/client';
import { handled } from '@/lib/http/errors';
import { isHttps } from '@/lib/http/security-headers';
import { rotateIdentity } from '@/lib/sessions/credentials-service';

export const POST = handled(async (request: Request) => {
  const cookie = await rotateIdentity(await getDb(), request);
  const response = new NextResponse(null, { status: 204 });
  response.cookies.set(IDENTITY_COOKIE, cookie, identityCookieOptions(isHttps(request)));
  return response;
});
