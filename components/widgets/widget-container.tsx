'use client';

import * as Dialog from '@radix-ui/react-dialog';
import { type ReactNode, useState } from 'react';
import type { WidgetContainer as Container } from '@/lib/widgets';
import { CloseIcon } from '../icons';

const placement: Record<Container, string> = {
  modal:
    'top-1/2 left-1/2 max-h-[85dvh] w-[min(32rem,calc(100vw-2rem))] -translate-x-1/2 -translate-y-1/2 rounded-xl',
  drawer: 'inset-y-0 right-0 w-[min(30rem,100vw)] border-l border-zinc-200 dark:border-zinc-800',
  fullscreen: 'inset-0',
};

type WidgetContainerProps = {
  container: Container;
  title: string;
  onClose: () => void;
  children: ReactNode;
};

/**
 * A widget's frame: a Radix dialog placed as the widget asks. Focus is trapped inside, Escape
 * and the close button close it, focus goes back to what opened it, the page behind is locked.
 */
export function WidgetContainer({ container, title, onClose, children }: WidgetContainerProps) {
  // Opened through the URL, not a Radix trigger: remember what had focus (the widget button).
  const [opener] = useState(() =>
    typeof document === 'undefined' ? null : (document.activeElement as HTMLElement | null),
  );
  return (
    <Dialog.Root open onOpenChange={(open) => open || onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-black/40" />
        <Dialog.Content
          aria-describedby={undefined}
          data-container={container}
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            opener?.focus();
          }}
          className={`fixed z-50 flex flex-col bg-white shadow-xl dark:bg-zinc-900 ${placement[container]}`}
        >
          <div className="flex h-12 shrink-0 items-center gap-2 border-b border-zinc-200 px-4 dark:border-zinc-800">
            <Dialog.Title className="min-w-0 flex-1 truncate font-semibold">{title}</Dialog.Title>
            <Dialog.Close
              aria-label="Close"
              className="rounded-md p-1.5 text-zinc-500 hover:bg-zinc-100 focus-visible:outline-2 focus-visible:outline-blue-500 dark:hover:bg-zinc-800"
            >
              <CloseIcon />
            </Dialog.Close>
          </div>
          <div className="min-h-0 flex-1 overflow-auto p-4">{children}</div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
