'use client';

import type { ComponentProps } from 'react';
import { Button } from '../ui/button';
import { Tooltip, TooltipContent, TooltipTrigger } from '../ui/tooltip';

type ActionButtonProps = Omit<ComponentProps<typeof Button>, 'aria-label' | 'children'> & {
  /** The button's accessible name, also shown as its tooltip. */
  label: string;
  /** The icon (aria-hidden: the label names the button). */
  children: React.ReactNode;
};

/** An icon button named by `label`, with that label as a tooltip on hover and focus. */
export function ActionButton({
  label,
  children,
  variant = 'ghost',
  size = 'icon-sm',
  ...props
}: ActionButtonProps) {
  return (
    <Tooltip>
      <TooltipTrigger asChild>
        <Button type="button" variant={variant} size={size} aria-label={label} {...props}>
          {children}
        </Button>
      </TooltipTrigger>
      <TooltipContent>{label}</TooltipContent>
    </Tooltip>
  );
}
