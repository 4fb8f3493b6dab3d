'use client';

import { ExternalLink } from 'lucide-react';
import { useRef } from 'react';
import type { LinkSafetyModalProps } from 'streamdown';
import { Button } from '../ui/button';
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '../ui/dialog';

/**
 * What Streamdown asks before it follows a link in an answer: a model's text may link anywhere,
 * so the reader sees the whole address first. Our dialog rather than Streamdown's own, which is
 * unthemed, is not announced as a dialog and leaves focus behind it; this one gives focus back
 * to the link when it closes.
 */
export function LinkPrompt({ isOpen, onClose, onConfirm, url }: LinkSafetyModalProps) {
  // No Radix trigger opens it, so Radix would not know where focus was: the link, kept here.
  const link = useRef<HTMLElement | null>(null);
  return (
    <Dialog open={isOpen} onOpenChange={(open) => !open && onClose()}>
      <DialogContent
        onOpenAutoFocus={() => {
          link.current = document.activeElement as HTMLElement | null;
        }}
        onCloseAutoFocus={(event) => {
          event.preventDefault();
          link.current?.focus();
        }}
      >
        <DialogHeader>
          <DialogTitle>Open external link?</DialogTitle>
          <DialogDescription>This link in the answer leads away from Quanta:</DialogDescription>
        </DialogHeader>
        <p className="break-all rounded-md bg-muted px-3 py-2 font-mono text-sm">{url}</p>
        <DialogFooter>
          <DialogClose asChild>
            <Button type="button" variant="outline">
              Cancel
            </Button>
          </DialogClose>
          <Button type="button" onClick={onConfirm}>
            <ExternalLink aria-hidden />
            Open link
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
