import { describe, expect, it } from 'vitest';
import { contentSecurityPolicy, isHttps, newNonce, securityHeaders } from './security-headers';

const context = { nonce: 'bm9uY2U=', https: false, dev: false };

function directives(policy: string): Record<string, string> {
  return Object.fromEntries(
    policy.split('; ').map((directive) => {
      const [name, ...values] = directive.split(' ');
      return [name, values.join(' ')];
    }),
  );
}

describe('contentSecurityPolicy', () => {
  it('runs only scripts with the nonce, or loaded by one, and nothing inline or evaluated', () => {
    const scripts = directives(contentSecurityPolicy(context))['script-src'];
    expect(scripts).toBe("'self' 'nonce-bm9uY2U=' 'strict-dynamic'");
  });

  it('allows eval in development only', () => {
    expect(directives(contentSecurityPolicy({ ...context, dev: true }))['script-src']).toContain(
      "'unsafe-eval'",
    );
  });

  it('keeps inline styles working and everything else on this origin', () => {
    expect(directives(contentSecurityPolicy(context))).toEqual({
      'default-src': "'self'",
      'script-src': expect.any(String),
      'worker-src': "'self'",
      'style-src': "'self' 'unsafe-inline'",
      'img-src': "'self' data: blob:",
      'font-src': "'self'",
      'connect-src': "'self'",
      'object-src': "'none'",
      'base-uri': "'none'",
      'form-action': "'self'",
      'frame-ancestors': "'none'",
    });
  });

  it('upgrades insecure requests behind HTTPS only', () => {
    expect(contentSecurityPolicy(context)).not.toContain('upgrade-insecure-requests');
    expect(contentSecurityPolicy({ ...context, https: true })).toContain(
      'upgrade-insecure-requests',
    );
  });
});

describe('securityHeaders', () => {
  it('sets the CSP with the nonce and the fixed protections', () => {
    const headers = securityHeaders(context);
    expect(headers['content-security-policy']).toContain("'nonce-bm9uY2U='");
    expect(headers).toMatchObject({
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'DENY',
      'referrer-policy': 'strict-origin-when-cross-origin',
    });
    expect(headers['permissions-policy']).toContain('camera=()');
    expect(headers['permissions-policy']).toContain('microphone=()');
    expect(headers['permissions-policy']).toContain('geolocation=()');
  });

  it('sends Strict-Transport-Security only behind HTTPS', () => {
    expect(securityHeaders(context)).not.toHaveProperty('strict-transport-security');
    expect(securityHeaders({ ...context, https: true })).toHaveProperty(
      'strict-transport-security',
      'max-age=31536000',
    );
  });
});

describe('newNonce', () => {
  it('is 128 random bits in base64, new every time', () => {
    const nonces = new Set(Array.from({ length: 100 }, newNonce));
    expect(nonces.size).toBe(100);
    for (const nonce of nonces) expect(Buffer.from(nonce, 'base64')).toHaveLength(16);
  });
});

describe('isHttps', () => {
  it('believes the URL or the first X-Forwarded-Proto', () => {
    expect(isHttps(new Request('https://quanta.test/'))).toBe(true);
    expect(isHttps(new Request('http://quanta.test/'))).toBe(false);
    const forwarded = (value: string) =>
      isHttps(new Request('http://quanta.test/', { headers: { 'x-forwarded-proto': value } }));
    expect(forwarded('https')).toBe(true);
    expect(forwarded('https, http')).toBe(true);
    expect(forwarded('http')).toBe(false);
  });
});
