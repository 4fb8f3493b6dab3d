'use client';

import type { FormEvent, ReactNode } from 'react';
import { ErrorAlert } from './error-alert';
import { Modal, type ModalProps } from './modal';
import { Button } from './ui/button';
import { DialogClose, DialogFooter } from './ui/dialog';

type ConfirmDialogProps = Omit<ModalProps, 'children' | 'trigger'> & {
  /** The fields the action needs, if any: Enter in one confirms. */
  children?: ReactNode;
  confirmLabel: string;
  tone: 'primary' | 'danger';
  /** While true the action cannot be taken: a field is incomplete. */
  disabled: boolean;
  /** While true the action is under way: the button ignores clicks but keeps focus. */
  pending?: boolean;
  error: Error | null;
  onConfirm: () => void;
};

/** A dialog that asks before one action: Cancel closes it, the confirm button takes it. */
export function ConfirmDialog({
  children,
  confirmLabel,
  tone,
  disabled,
  pending = false,
  error,
  onConfirm,
  ...modal
}: ConfirmDialogProps) {
  function submit(event: FormEvent) {
    event.preventDefault();
    if (!disabled && !pending) onConfirm();
  }

  return (
    <Modal {...modal}>
      <form onSubmit={submit} className="grid gap-4">
        {children}
        {error && <ErrorAlert>{error.message}</ErrorAlert>}
        <DialogFooter>
          <DialogClose asChild>
            <Button type="button" variant="outline">
              Cancel
            </Button>
          </DialogClose>
          <Button
            type="submit"
            variant={tone === 'danger' ? 'destructive' : 'default'}
            disabled={disabled}
            pending={pending}
          >
            {confirmLabel}
          </Button>
        </DialogFooter>
      </form>
    </Modal>
  );
}
