'use client';

import { type ReactElement, type ReactNode, useRef } from 'react';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from './ui/dialog';

export type ModalProps = {
  /** Controlled; leave both out when `trigger` opens it. */
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
  /** The button that opens the dialog; focus returns to it when the dialog closes. */
  trigger?: ReactElement;
  title: string;
  description?: string;
  /**
   * Where focus goes when the dialog closes, for a dialog opened from a menu: its item is gone
   * by then. Call `event.preventDefault()` and focus something (see returnFocusTo).
   */
  onCloseAutoFocus?: (event: Event) => void;
  /** Mounted only while the dialog is open. */
  children: ReactNode;
};

/** A dialog with a title, a description if given, and its content: components/ui/dialog's parts. */
export function Modal({
  open,
  onOpenChange,
  trigger,
  title,
  description,
  onCloseAutoFocus,
  children,
}: ModalProps) {
  // Radix gives focus back to its own trigger; a dialog opened otherwise (by state, by a link's
  // click) gives it back to what held it when the dialog opened, unless `onCloseAutoFocus`
  // already put it somewhere.
  const opener = useRef<HTMLElement | null>(null);
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      {trigger && <DialogTrigger asChild>{trigger}</DialogTrigger>}
      <DialogContent
        {...(description === undefined && { 'aria-describedby': undefined })}
        onOpenAutoFocus={() => {
          opener.current = document.activeElement as HTMLElement | null;
        }}
        onCloseAutoFocus={(event) => {
          onCloseAutoFocus?.(event);
          if (trigger || event.defaultPrevented) return;
          event.preventDefault();
          opener.current?.focus();
        }}
      >
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          {description !== undefined && <DialogDescription>{description}</DialogDescription>}
        </DialogHeader>
        {children}
      </DialogContent>
    </Dialog>
  );
}

/** A dialog's `onCloseAutoFocus` that puts focus on `target` (a menu's button, say). */
export function returnFocusTo(target: { current: HTMLElement | null }) {
  return (event: Event) => {
    event.preventDefault();
    target.current?.focus();
  };
}
