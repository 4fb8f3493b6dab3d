import { expect, it } from 'vitest';
import { cn } from './cn';

it('lets the later of two conflicting Tailwind classes win, the theme tokens included', () => {
  expect(cn('px-2 py-1 bg-muted', 'px-4 bg-background')).toBe('py-1 px-4 bg-background');
});

it('keeps classes that only look alike: a text colour and a text size', () => {
  expect(cn('text-sm', 'text-muted-foreground')).toBe('text-sm text-muted-foreground');
});

it('drops falsy entries', () => {
  expect(cn('rounded-md', false, undefined, { hidden: false, block: true })).toBe(
    'rounded-md block',
  );
});
