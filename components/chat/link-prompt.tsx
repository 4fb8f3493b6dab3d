'use client';

import type { LinkSafetyModalProps } from 'streamdown';
import { ConfirmDialog } from '../confirm-dialog';

/**
 * What Streamdown asks before it follows a link in an answer: a model's text may link anywhere,
 * so the reader sees the whole address first. Our dialog rather than Streamdown's own, which is
 * unthemed, is not announced as a dialog and leaves focus behind it; this one gives focus back
 * to the link when it closes.
 */
export function LinkPrompt({ isOpen, onClose, onConfirm, url }: LinkSafetyModalProps) {
  return (
    <ConfirmDialog
      open={isOpen}
      onOpenChange={(open) => !open && onClose()}
      title="Open external link?"
      description="This link in the answer leads away from Quanta:"
      confirmLabel="Open link"
      tone="primary"
      disabled={false}
      error={null}
      onConfirm={onConfirm}
    >
      <p className="break-all rounded-md bg-muted px-3 py-2 font-mono text-sm">{url}</p>
    </ConfirmDialog>
  );
}
