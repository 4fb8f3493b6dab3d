'use client';

import * as DialogPrimitive from '@radix-ui/react-dialog';
import { cva, type VariantProps } from 'class-variance-authority';
import type { ComponentProps } from 'react';
import { cn } from './cn';
import { DialogCornerClose, DialogOverlay } from './dialog';

// A sheet is a dialog that slides in from an edge: the same Radix parts, laid out differently.
export {
  Dialog as Sheet,
  DialogClose as SheetClose,
  DialogDescription as SheetDescription,
  DialogFooter as SheetFooter,
  DialogHeader as SheetHeader,
  DialogTitle as SheetTitle,
  DialogTrigger as SheetTrigger,
} from './dialog';

const sheetVariants = cva(
  'fixed z-50 flex flex-col gap-4 overflow-y-auto border-border bg-popover p-6 text-popover-foreground shadow-lg',
  {
    variants: {
      side: {
        left: 'inset-y-0 left-0 h-full w-3/4 max-w-sm border-r',
        right: 'inset-y-0 right-0 h-full w-3/4 max-w-sm border-l',
        bottom: 'inset-x-0 bottom-0 max-h-[85dvh] rounded-t-xl border-t',
      },
    },
    defaultVariants: { side: 'right' },
  },
);

type SheetContentProps = ComponentProps<typeof DialogPrimitive.Content> &
  VariantProps<typeof sheetVariants>;

/** The drawer itself, modal like a dialog (focus trapped, Escape closes, focus returns). */
export function SheetContent({ className, children, side, ...props }: SheetContentProps) {
  return (
    <DialogPrimitive.Portal>
      <DialogOverlay />
      <DialogPrimitive.Content
        data-slot="sheet-content"
        className={cn(sheetVariants({ side }), className)}
        {...props}
      >
        {children}
        <DialogCornerClose />
      </DialogPrimitive.Content>
    </DialogPrimitive.Portal>
  );
}
