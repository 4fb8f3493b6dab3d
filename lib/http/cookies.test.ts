import { describe, expect, it } from 'vitest';
import { readCookie } from './cookies';

const headers = (cookie: string) => new Headers({ cookie });

describe('readCookie', () => {
  it('finds one cookie among others and decodes it', () => {
    expect(readCookie(headers('a=1; quanta_id=x%2Fy=z; b=2'), 'quanta_id')).toBe('x/y=z');
    expect(readCookie(headers('a=1'), 'quanta_id')).toBeUndefined();
    expect(readCookie(new Headers(), 'quanta_id')).toBeUndefined();
  });

  it.each(['%E0%A4%A', '%ZZ', '%'])(
    'treats a value that does not decode (%s) as absent',
    (value) => {
      expect(readCookie(headers(`quanta_id=${value}; b=2`), 'quanta_id')).toBeUndefined();
      expect(readCookie(headers(`quanta_id=${value}; b=2`), 'b')).toBe('2');
    },
  );
});
