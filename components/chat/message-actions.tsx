'use client';

import { Check, Copy, Info } from 'lucide-react';
import { type ReactNode, useEffect, useState } from 'react';
import type { TokenUsage } from '@/lib/protocol';
import { cn } from '../ui/cn';
import { toastError } from '../ui/toast';
import { ActionButton } from './action-button';
import { formatUsage } from './usage';

/** How long Copy shows its check mark. */
const COPIED_MS = 2000;

/**
 * The buttons under a message. On a screen with a mouse they show while the message is hovered
 * or holds the focus (they stay in the layout, so nothing moves); on a touch screen, always.
 * The message's row is the `group/message`.
 */
export function MessageActions({
  className,
  children,
}: {
  className?: string;
  children: ReactNode;
}) {
  return (
    <div
      className={cn(
        'flex items-center gap-0.5 text-muted-foreground transition-opacity',
        'opacity-0 group-hover/message:opacity-100 group-focus-within/message:opacity-100 [@media(hover:none)]:opacity-100',
        className,
      )}
    >
      {children}
    </div>
  );
}

/** Puts `text` (a message's markdown) on the clipboard; a check mark says it is there. */
export function CopyAction({ text }: { text: string }) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPIED_MS);
    return () => clearTimeout(timer);
  }, [copied]);

  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(true);
    } catch {
      toastError('Could not copy: the browser did not allow it.');
    }
  }

  return (
    <ActionButton label={copied ? 'Copied' : 'Copy'} onClick={() => void copy()}>
      {copied ? <Check aria-hidden /> : <Copy aria-hidden />}
    </ActionButton>
  );
}

/** An answer's tokens (and cost), on hover or focus of an info icon: for the owner only. */
export function UsageInfo({ usage }: { usage: TokenUsage }) {
  return (
    <ActionButton label={`Usage: ${formatUsage(usage)}`}>
      <Info aria-hidden />
    </ActionButton>
  );
}
