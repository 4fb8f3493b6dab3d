'use client';

import { CheckIcon, CopyIcon } from 'lucide-react';
import { useState } from 'react';
import { Button } from './ui/button';
import { toastError, toastSuccess } from './ui/toast';

type CopyButtonProps = {
  text: string;
  /** The button's name, e.g. "Copy link". */
  label: string;
  /** The toast once it is on the clipboard, e.g. "Link copied". */
  copiedMessage: string;
};

/** Copies `text`; a check mark and a toast say it worked (the toast is announced). */
export function CopyButton({ text, label, copiedMessage }: CopyButtonProps) {
  const [copied, setCopied] = useState(false);

  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
    } catch {
      // No clipboard (an insecure origin, a denied permission): the text is on screen to select.
      toastError('Could not copy: select the text and copy it instead.');
      return;
    }
    toastSuccess(copiedMessage);
    setCopied(true);
    setTimeout(() => setCopied(false), 1500);
  }

  return (
    <Button type="button" variant="outline" size="sm" onClick={() => void copy()}>
      {copied ? <CheckIcon aria-hidden /> : <CopyIcon aria-hidden />}
      {label}
    </Button>
  );
}
