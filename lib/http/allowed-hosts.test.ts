import { describe, expect, it } from 'vitest';
import { allowedHosts, isAllowedHost, parseHost, refuseHost, requestHost } from './allowed-hosts';

describe('parseHost', () => {
  it('reads a name, an IP literal and a port', () => {
    expect(parseHost('Quanta.Example.com')).toEqual({ hostname: 'quanta.example.com' });
    expect(parseHost('localhost:3000')).toEqual({ hostname: 'localhost', port: '3000' });
    expect(parseHost('127.0.0.1:80')).toEqual({ hostname: '127.0.0.1', port: '80' });
    expect(parseHost('[0:0:0:0:0:0:0:1]:3000')).toEqual({ hostname: '[::1]', port: '3000' });
  });

  it('refuses what is not a host with an optional port', () => {
    for (const value of [
      '',
      'evil.example@localhost',
      'localhost/path',
      'localhost:',
      'localhost:123456',
      '[::g]',
      '::1',
      '-evil.example',
      'local host',
    ]) {
      expect(parseHost(value), value).toBeUndefined();
    }
  });
});

describe('allowedHosts', () => {
  const allowed = (host: string, env: Record<string, string> = {}) =>
    isAllowedHost(host, allowedHosts(env));

  it('allows this machine, on any port, by default', () => {
    for (const host of ['localhost', 'localhost:3000', '127.0.0.1:8080', '[::1]:3000']) {
      expect(allowed(host), host).toBe(true);
    }
    expect(allowed('quanta.example.com')).toBe(false);
    expect(allowed('192.168.1.10:3000')).toBe(false);
  });

  it('takes QUANTA_ALLOWED_HOSTS instead, a port when given must match', () => {
    const env = { QUANTA_ALLOWED_HOSTS: ' chat.example.com , 10.0.0.5:3000,[fd00::1]' };
    expect(allowed('chat.example.com', env)).toBe(true);
    expect(allowed('CHAT.example.com:8443', env)).toBe(true);
    expect(allowed('10.0.0.5:3000', env)).toBe(true);
    expect(allowed('10.0.0.5:3001', env)).toBe(false);
    expect(allowed('10.0.0.5', env)).toBe(false);
    expect(allowed('[fd00::1]:3000', env)).toBe(true);
    expect(allowed('localhost:3000', env)).toBe(false);
    expect(allowed('example.com', env)).toBe(false);
  });

  it('adds the host of QUANTA_PUBLIC_URL and the Vercel deployment names', () => {
    const env = {
      QUANTA_PUBLIC_URL: 'https://quanta.example.org/',
      VERCEL_URL: 'quanta-abc123.vercel.app',
      VERCEL_BRANCH_URL: 'quanta-git-main.vercel.app',
      VERCEL_PROJECT_PRODUCTION_URL: 'quanta.example.net',
    };
    for (const host of [
      'quanta.example.org',
      'quanta-abc123.vercel.app',
      'quanta-git-main.vercel.app',
      'quanta.example.net',
      'localhost:3000',
    ]) {
      expect(allowed(host, env), host).toBe(true);
    }
    expect(allowed('other.vercel.app', env)).toBe(false);
  });

  it('refuses a malformed setting instead of guessing', () => {
    expect(() => allowedHosts({ QUANTA_ALLOWED_HOSTS: 'https://chat.example.com' })).toThrow(
      /QUANTA_ALLOWED_HOSTS/,
    );
    expect(() => allowedHosts({ QUANTA_PUBLIC_URL: 'chat.example.com' })).toThrow(
      /QUANTA_PUBLIC_URL/,
    );
    expect(() => allowedHosts({ QUANTA_PUBLIC_URL: 'ftp://chat.example.com' })).toThrow(
      /QUANTA_PUBLIC_URL/,
    );
  });
});

describe('refuseHost', () => {
  const rules = allowedHosts({});
  const check = (headers: Record<string, string>, api = true) =>
    refuseHost(new Headers(headers), api, rules);

  it('lets an allowed Host through, with an allowed X-Forwarded-Host if there is one', () => {
    expect(check({ host: 'localhost:3000' })).toBeUndefined();
    expect(check({ host: '127.0.0.1:3000', 'x-forwarded-host': 'localhost:3000' })).toBeUndefined();
  });

  it('answers a foreign Host with 421 JSON under /api', async () => {
    const response = check({ host: 'rebound.evil.example:3000' });
    expect(response?.status).toBe(421);
    expect(response?.headers.get('content-type')).toBe('application/json');
    expect(await response?.json()).toEqual({
      error: { code: 'host_not_allowed', message: expect.stringContaining('rebound.evil.example') },
    });
  });

  it('answers a foreign Host with a line of text for a page', async () => {
    const response = check({ host: 'rebound.evil.example' }, false);
    expect(response?.status).toBe(421);
    expect(response?.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await response?.text()).toContain('QUANTA_ALLOWED_HOSTS');
  });

  it('refuses a foreign X-Forwarded-Host, and a request with no Host', () => {
    expect(check({ host: 'localhost', 'x-forwarded-host': 'evil.example' })?.status).toBe(421);
    expect(
      check({ host: 'localhost', 'x-forwarded-host': 'evil.example, localhost' })?.status,
    ).toBe(421);
    expect(check({})?.status).toBe(421);
  });
});

describe('requestHost', () => {
  it('is the first X-Forwarded-Host, else Host', () => {
    expect(requestHost(new Headers({ host: 'a:1' }))).toBe('a:1');
    expect(requestHost(new Headers({ host: 'a:1', 'x-forwarded-host': 'b, c' }))).toBe('b');
    expect(requestHost(new Headers())).toBeNull();
  });
});
