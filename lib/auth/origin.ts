/**
 * CSRF: a request that rides on the browser's cookie must come from our own pages. Bearer
 * requests carry no ambient credential and are exempt.
 */
export function isSameOrigin(headers: Headers): boolean {
  const origin = headers.get('origin');
  if (!origin) return headers.get('sec-fetch-site') !== 'cross-site';
  const host = headers.get('x-forwarded-host') ?? headers.get('host');
  try {
    return new URL(origin).host === host;
  } catch {
    return false;
  }
}
