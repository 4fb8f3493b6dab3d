'use client';

import type { FormEvent, ReactNode } from 'react';
import {
  dangerButton,
  Modal,
  ModalClose,
  type ModalProps,
  primaryButton,
  secondaryButton,
} from './modal';

type ConfirmDialogProps = Omit<ModalProps, 'children'> & {
  /** The fields the action needs, if any: Enter in one confirms. */
  children?: ReactNode;
  confirmLabel: string;
  tone: 'primary' | 'danger';
  /** While true the action cannot be taken (a field is incomplete, or it is under way). */
  disabled: boolean;
  error: Error | null;
  onConfirm: () => void;
};

/** A dialog that asks before one action: Cancel closes it, the confirm button takes it. */
export function ConfirmDialog({
  open,
  onOpenChange,
  title,
  description,
  children,
  confirmLabel,
  tone,
  disabled,
  error,
  onConfirm,
}: ConfirmDialogProps) {
  function submit(event: FormEvent) {
    event.preventDefault();
    if (!disabled) onConfirm();
  }

  return (
    <Modal open={open} onOpenChange={onOpenChange} title={title} description={description}>
      <form onSubmit={submit} className="flex flex-col gap-3">
        {children}
        {error && (
          <p role="alert" className="text-sm text-red-600">
            {error.message}
          </p>
        )}
        <div className="flex justify-end gap-2">
          <ModalClose className={secondaryButton}>Cancel</ModalClose>
          <button
            type="submit"
            className={tone === 'danger' ? dangerButton : primaryButton}
            disabled={disabled}
          >
            {confirmLabel}
          </button>
        </div>
      </form>
    </Modal>
  );
}
