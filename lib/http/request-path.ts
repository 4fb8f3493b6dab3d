// A control character (NUL above all) is no part of any id, and PostgreSQL refuses a NUL.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
const CONTROL = /[\u0000-\u001f\u007f]/;

/**
 * Whether every segment of `pathname`, as it came (percent-encoded), decodes as UTF-8 text
 * without control characters. Next answers a plain-text 500 to a route parameter that does
 * not decode (`%ZZ`, `%C0%AF`), and a NUL (`%00`) would reach the database.
 */
export function decodes(pathname: string): boolean {
  try {
    return pathname.split('/').every((segment) => !CONTROL.test(decodeURIComponent(segment)));
  } catch {
    return false;
  }
}

export const UNDECODABLE_PATH =
  'The path is not valid percent-encoded UTF-8, or holds a control character.';

/** A page's path that does not decode gets a 400 and a line of text. */
export function refusePagePath(pathname: string): Response | undefined {
  if (decodes(pathname)) return undefined;
  return new Response(`${UNDECODABLE_PATH}\n`, {
    status: 400,
    headers: { 'content-type': 'text/plain; charset=utf-8' },
  });
}
