import { cookies, headers } from 'next/headers';
import { IDENTITY_COOKIE, identify } from '@/lib/auth/identity';
import { getDb } from '@/lib/db/client';

/** The identity cookie of the page being rendered (the proxy guarantees one) and its owner. */
export async function viewer(): Promise<{ token: string; ownerId: string | undefined }> {
  const token = (await cookies()).get(IDENTITY_COOKIE)?.value ?? '';
  return { token, ownerId: (await identify(await getDb(), await headers()))?.ownerId };
}
