'use client';

import { type ReactNode, useState } from 'react';
import { cn } from '@/components/ui/cn';
import { Dialog, DialogContent, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { SheetContent } from '@/components/ui/sheet';
import type { WidgetContainer as Container } from '@/lib/widgets';

// Every container lays out the same: a title bar (the ✕ sits in its corner) over a body that
// scrolls on its own, so the title and the close button stay in view.
const frame = 'flex flex-col gap-0 overflow-hidden p-0';

// A modal is as wide as its content (a counter is small, a table wide) up to 56rem: max-content,
// as `auto` would be at most half the window beside the centring `left: 50%`.
const placement: Record<Container, string> = {
  modal: 'w-max min-w-[min(20rem,calc(100vw-2rem))] max-w-[min(56rem,calc(100vw-2rem))]',
  drawer: 'w-[min(30rem,100vw)] max-w-none',
  fullscreen:
    'inset-0 h-dvh max-h-none w-screen max-w-none translate-x-0 translate-y-0 rounded-none border-0',
};

type WidgetContainerProps = {
  container: Container;
  title: string;
  onClose: () => void;
  children: ReactNode;
};

/**
 * A widget's frame: a dialog, or a sheet for a drawer, placed as the widget asks. Focus is
 * trapped inside, Escape and the ✕ close it, focus goes back to what opened it, the page behind
 * is locked.
 */
export function WidgetContainer({ container, title, onClose, children }: WidgetContainerProps) {
  // Opened from React state, not a Radix trigger: remember what had focus (the widget button).
  const [opener] = useState(() =>
    typeof document === 'undefined' ? null : (document.activeElement as HTMLElement | null),
  );
  const Content = container === 'drawer' ? SheetContent : DialogContent;
  return (
    <Dialog open onOpenChange={(open) => open || onClose()}>
      <Content
        aria-describedby={undefined}
        data-container={container}
        onCloseAutoFocus={(event) => {
          event.preventDefault();
          opener?.focus();
        }}
        className={cn(frame, placement[container])}
      >
        <DialogHeader className="h-14 shrink-0 justify-center border-b px-4 pr-14">
          <DialogTitle className="truncate text-base">{title}</DialogTitle>
        </DialogHeader>
        <div className="min-h-0 flex-1 overflow-auto p-4">{children}</div>
      </Content>
    </Dialog>
  );
}
