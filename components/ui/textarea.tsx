import type { ComponentProps } from 'react';
import { cn } from './cn';
import { fieldClass } from './field';

/** Grows with its content (field-sizing) where the browser supports it. */
export function Textarea({ className, ...props }: ComponentProps<'textarea'>) {
  return (
    <textarea
      data-slot="textarea"
      className={cn(fieldClass, 'field-sizing-content min-h-16 py-2', className)}
      {...props}
    />
  );
}
