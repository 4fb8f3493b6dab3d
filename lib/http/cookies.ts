/**
 * The value of one cookie in a request's Cookie header. A value that is not valid
 * percent-encoding (a client's mistake or a probe) counts as absent, never as an error.
 */
export function readCookie(headers: Pick<Headers, 'get'>, name: string): string | undefined {
  for (const pair of (headers.get('cookie') ?? '').split(';')) {
    const [key, ...value] = pair.trim().split('=');
    if (key !== name) continue;
    try {
      return decodeURIComponent(value.join('='));
    } catch {
      return undefined;
    }
  }
  return undefined;
}
