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

test('no page carries the identity cookie’s value, in its HTML or its RSC payload', async ({
  request,
}) => {
  const home = await request.get('/');
  const cookie = /quanta_id=([^;]+)/.exec(home.headers()['set-cookie'] ?? '')?.[1];
  expect(cookie).toBeDefined();
  const token = decodeURIComponent(cookie as string);
  const headers = { cookie: `quanta_id=${cookie}`, origin: new URL(home.url()).origin };
  const created = await request.post('/api/sessions', { headers, data: { title: 'mine' } });
  const { id } = (await created.json()).session;
  for (const path of ['/', `/c/${id}`]) {
    for (const rsc of [false, true]) {
      const page = await request.get(path, {
        headers: { cookie: `quanta_id=${cookie}`, ...(rsc ? { rsc: '1' } : {}) },
      });
      expect(page.status()).toBe(200);
      const body = await page.text();
      expect(body.length).toBeGreaterThan(100);
      // The token is `owner.mac`: neither it nor its signature may be in what a script can read.
      expect(body).not.toContain(token);
      expect(body).not.toContain(token.split('.').at(-1));
    }
  }
});
