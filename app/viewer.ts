import { headers } from 'next/headers';
import { identify } from '@/lib/auth/identity';
import { getDb } from '@/lib/db/client';

/**
 * The owner the page being rendered is for: from an API token (`Authorization: Bearer`) or
 * the identity cookie, as for the API routes; undefined for nobody.
 */
export async function viewerId(): Promise<string | undefined> {
  return (await identify(await getDb(), await headers()))?.ownerId;
}
