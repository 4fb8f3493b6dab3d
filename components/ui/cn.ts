import { type ClassValue, clsx } from 'clsx';
import { twMerge } from 'tailwind-merge';

/**
 * Joins class names; of two conflicting Tailwind classes the later wins, so a caller's
 * `className` overrides a component's defaults (`cn('px-2', 'px-4')` is `px-4`).
 */
export function cn(...inputs: ClassValue[]) {
  return twMerge(clsx(inputs));
}
