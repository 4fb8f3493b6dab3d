import { requestHost } from '../http/allowed-hosts';

/**
 * CSRF: a request that rides on the browser's cookie must come from our own pages. Bearer
 * requests carry no ambient credential and are exempt. The host compared with is the one the
 * proxy checked against the allow-list (lib/http/allowed-hosts.ts), so a foreign name made to
 * point here (DNS rebinding) is refused before it gets this far.
 */
export function isSameOrigin(headers: Headers): boolean {
  const origin = headers.get('origin');
  if (!origin) return headers.get('sec-fetch-site') !== 'cross-site';
  try {
    return new URL(origin).host === requestHost(headers);
  } catch {
    return false;
  }
}
