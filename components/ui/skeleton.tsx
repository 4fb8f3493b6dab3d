import type { ComponentProps } from 'react';
import { cn } from './cn';

/** A placeholder block while content loads; mark the loading region aria-busy, not this. */
export function Skeleton({ className, ...props }: ComponentProps<'div'>) {
  return (
    <div
      data-slot="skeleton"
      aria-hidden
      className={cn('animate-pulse rounded-md bg-muted motion-reduce:animate-none', className)}
      {...props}
    />
  );
}
