import { expect, test } from '@playwright/test';

// What every response carries, checked on the real server: pages, API answers, static files.

test('pages and API answers carry the security headers; static files are nosniff', async ({
  request,
}) => {
  const page = await request.get('/');
  const api = await request.get('/api/models');
  for (const response of [page, api]) {
    const headers = response.headers();
    const csp = headers['content-security-policy'] ?? '';
    expect(csp).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]{16,}' 'strict-dynamic'/);
    expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['x-frame-options']).toBe('DENY');
    expect(headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(headers['permissions-policy']).toContain('camera=()');
    // Served over plain HTTP here: no HSTS, which would break a local install.
    expect(headers['strict-transport-security']).toBeUndefined();
  }
  // Each page gets its own nonce, and Next puts it on its scripts.
  const nonce = /'nonce-([^']+)'/.exec(page.headers()['content-security-policy'] ?? '')?.[1];
  expect(await page.text()).toContain(`nonce="${nonce}"`);
  const again = await request.get('/');
  expect(again.headers()['content-security-policy']).not.toContain(`'nonce-${nonce}'`);

  const script = /src="(\/_next\/static\/[^"]+\.js)"/.exec(await again.text())?.[1];
  expect(script).toBeDefined();
  const asset = await request.get(script as string);
  expect(asset.status()).toBe(200);
  expect(asset.headers()['x-content-type-options']).toBe('nosniff');
});

test('behind an HTTPS proxy, responses ask for HTTPS from then on', async ({ request }) => {
  const response = await request.get('/', { headers: { 'x-forwarded-proto': 'https' } });
  expect(response.headers()['strict-transport-security']).toMatch(/^max-age=\d+/);
  expect(response.headers()['set-cookie']).toContain('Secure');
});
