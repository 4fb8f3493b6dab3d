import { randomBytes } from 'node:crypto';

export type SecurityContext = {
  /** This response's script nonce: fresh for every request. */
  nonce: string;
  /** Whether the client reached us over HTTPS (directly or through a proxy that says so). */
  https: boolean;
  /** `next dev`, where React needs `eval` to rebuild server error stacks. */
  dev: boolean;
};

export function newNonce(): string {
  return randomBytes(16).toString('base64');
}

/** Whether the request came over HTTPS: its own URL, or the first proxy's `X-Forwarded-Proto`. */
export function isHttps(request: Request): boolean {
  const forwarded = request.headers.get('x-forwarded-proto')?.split(',')[0]?.trim();
  return forwarded === 'https' || new URL(request.url).protocol === 'https:';
}

/**
 * Scripts run only with this response's nonce (Next puts it on its own scripts when it finds
 * it in the request's CSP) or when loaded by such a script ('strict-dynamic': the lazily
 * loaded widget views). Nothing is loaded, sent or framed across origins.
 */
export function contentSecurityPolicy({ nonce, https, dev }: SecurityContext): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${dev ? " 'unsafe-eval'" : ''}`,
    // The code highlighter's worker (a script of this origin; 'strict-dynamic' covers no worker).
    "worker-src 'self'",
    // Recharts and Streamdown set style attributes. No nonce here: next to one, browsers
    // ignore 'unsafe-inline'.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    ...(https ? ['upgrade-insecure-requests'] : []),
  ].join('; ');
}

// Powerful features nothing in Quanta uses, off for the page and anything it might embed.
const PERMISSIONS_POLICY = [
  'accelerometer',
  'bluetooth',
  'browsing-topics',
  'camera',
  'display-capture',
  'geolocation',
  'gyroscope',
  'hid',
  'magnetometer',
  'microphone',
  'midi',
  'payment',
  'serial',
  'usb',
]
  .map((feature) => `${feature}=()`)
  .join(', ');

export type SecurityHeaders = { 'content-security-policy': string; [name: string]: string };

/** The headers every response carries, pages and API alike. */
export function securityHeaders(context: SecurityContext): SecurityHeaders {
  return {
    'content-security-policy': contentSecurityPolicy(context),
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'referrer-policy': 'strict-origin-when-cross-origin',
    'permissions-policy': PERMISSIONS_POLICY,
    // Only behind HTTPS: a server reached over plain HTTP must not pin browsers to HTTPS.
    ...(context.https ? { 'strict-transport-security': 'max-age=31536000' } : {}),
  };
}

/** This request's security headers, with a fresh nonce. */
export function securityHeadersFor(request: Request): SecurityHeaders {
  return securityHeaders({
    nonce: newNonce(),
    https: isHttps(request),
    dev: process.env.NODE_ENV === 'development',
  });
}

export function withHeaders<R extends Response>(response: R, headers: Record<string, string>): R {
  for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
  return response;
}
