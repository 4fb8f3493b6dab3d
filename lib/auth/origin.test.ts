import { describe, expect, it } from 'vitest';
import { isSameOrigin } from './origin';

const sameOrigin = (headers: Record<string, string>) => isSameOrigin(new Headers(headers));

describe('isSameOrigin', () => {
  it('accepts an Origin naming the host asked for', () => {
    expect(sameOrigin({ host: 'localhost:3000', origin: 'http://localhost:3000' })).toBe(true);
  });

  it('refuses another origin, or one that is no URL', () => {
    expect(sameOrigin({ host: 'localhost:3000', origin: 'http://evil.example' })).toBe(false);
    expect(sameOrigin({ host: 'localhost:3000', origin: 'http://localhost:3001' })).toBe(false);
    expect(sameOrigin({ host: 'localhost:3000', origin: 'null' })).toBe(false);
  });

  it('compares with the first proxy X-Forwarded-Host when there is one', () => {
    const forwarded = { host: '10.0.0.5:3000', 'x-forwarded-host': 'chat.example.com, 10.0.0.5' };
    expect(sameOrigin({ ...forwarded, origin: 'https://chat.example.com' })).toBe(true);
    expect(sameOrigin({ ...forwarded, origin: 'http://10.0.0.5:3000' })).toBe(false);
  });

  it('without Origin, refuses only what the browser marks cross-site', () => {
    expect(sameOrigin({ host: 'localhost' })).toBe(true);
    expect(sameOrigin({ host: 'localhost', 'sec-fetch-site': 'same-origin' })).toBe(true);
    expect(sameOrigin({ host: 'localhost', 'sec-fetch-site': 'cross-site' })).toBe(false);
  });
});
