import type { ComponentProps } from 'react';
import { cn } from './cn';
import { fieldClass } from './field';

export function Input({ className, type, ...props }: ComponentProps<'input'>) {
  return (
    <input
      type={type}
      data-slot="input"
      className={cn(fieldClass, 'h-9 py-1', className)}
      {...props}
    />
  );
}
