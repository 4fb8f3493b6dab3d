import { focusRing } from './focus-ring';

/** The look Input and Textarea share: a bordered box, invalid in the destructive colour. */
export const fieldClass = [
  'w-full min-w-0 rounded-md border border-input bg-transparent px-3 text-base md:text-sm',
  'placeholder:text-muted-foreground',
  focusRing,
  'disabled:cursor-not-allowed disabled:opacity-50',
  'aria-invalid:border-destructive aria-invalid:focus-visible:outline-destructive',
];
