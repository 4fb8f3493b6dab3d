'use client';

import { Modal, type ModalProps } from './modal';

type DialogTriggerButtonProps = Omit<ModalProps, 'open' | 'onOpenChange' | 'trigger'> & {
  /** The button's text. */
  label: string;
  className: string;
};

/**
 * A button that opens a dialog of its own; focus returns to it when the dialog closes. Kept for
 * components/chat/model-picker.tsx; new code passes a <Button> as Modal's `trigger`.
 */
export function DialogTriggerButton({ label, className, ...modal }: DialogTriggerButtonProps) {
  return (
    <Modal
      {...modal}
      trigger={
        <button type="button" className={className}>
          {label}
        </button>
      }
    />
  );
}
