import { cookies } from 'next/headers';
import { IDENTITY_COOKIE, ownerOf } from '@/lib/auth/identity';

/** The identity cookie of the page being rendered (the proxy guarantees one) and its owner. */
export async function viewer(): Promise<{ token: string; ownerId: string | undefined }> {
  const token = (await cookies()).get(IDENTITY_COOKIE)?.value ?? '';
  return { token, ownerId: ownerOf(token) };
}
