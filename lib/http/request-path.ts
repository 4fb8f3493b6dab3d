/**
 * Whether every segment of `pathname`, as it came (percent-encoded), decodes as UTF-8. Next
 * answers a plain-text 500 to a route parameter that does not (`%ZZ`, `%C0%AF`).
 */
export function decodes(pathname: string): boolean {
  try {
    for (const segment of pathname.split('/')) decodeURIComponent(segment);
    return true;
  } catch {
    return false;
  }
}

export const UNDECODABLE_PATH = 'The path is not valid percent-encoded UTF-8.';

/** A page's path that does not decode gets a 400 and a line of text. */
export function refusePagePath(pathname: string): Response | undefined {
  if (decodes(pathname)) return undefined;
  return new Response(`${UNDECODABLE_PATH}\n`, {
    status: 400,
    headers: { 'content-type': 'text/plain; charset=utf-8' },
  });
}
