import { describe, expect, it } from 'vitest';
import { decodes, refusePagePath } from './request-path';

describe('decodes', () => {
  it('accepts plain and well-encoded paths', () => {
    expect(decodes('/c/abc')).toBe(true);
    expect(decodes('/c/%E2%9C%93%20x')).toBe(true);
  });

  it('refuses bad escapes, overlong forms, encoded lone surrogates and control characters', () => {
    for (const path of [
      '/c/%ZZ',
      '/c/%C0%AF',
      '/c/%',
      '/c/%ED%A0%80',
      '/%E2%9C/c',
      '/c/%00',
      '/c/a%0Ab',
      '/c/%7F',
    ]) {
      expect(decodes(path), path).toBe(false);
    }
  });
});

describe('refusePagePath', () => {
  it('answers a path that does not decode with 400 and a line of text', async () => {
    const response = refusePagePath('/c/%C0%AF');
    expect(response?.status).toBe(400);
    expect(response?.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await response?.text()).toBe(
      'The path is not valid percent-encoded UTF-8, or holds a control character.\n',
    );
  });

  it('lets any other path through', () => {
    expect(refusePagePath('/c/abc')).toBeUndefined();
  });
});
