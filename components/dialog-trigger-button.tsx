'use client';

import { useState } from 'react';
import { Modal, type ModalProps } from './modal';

type DialogTriggerButtonProps = Omit<ModalProps, 'open' | 'onOpenChange'> & {
  /** The button's text. */
  label: string;
  className: string;
};

/** A button that opens a dialog of its own; the dialog's content is mounted only while open. */
export function DialogTriggerButton({
  label,
  className,
  title,
  description,
  children,
}: DialogTriggerButtonProps) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className={className} onClick={() => setOpen(true)}>
        {label}
      </button>
      <Modal open={open} onOpenChange={setOpen} title={title} description={description}>
        {children}
      </Modal>
    </>
  );
}
