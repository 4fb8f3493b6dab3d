'use client';

import * as Dialog from '@radix-ui/react-dialog';
import { type ReactNode, useState } from 'react';
import { CloseIcon, MenuIcon } from './icons';
import { SessionsSidebar } from './sessions-sidebar';

/**
 * The chat layout: a sessions sidebar beside the transcript on wide screens; under 768 px the
 * sidebar moves into a drawer (a Radix dialog, so focus is trapped and Escape closes it).
 */
type AppShellProps = {
  /** What the top bar shows beside the menu button: a title, actions. */
  header?: ReactNode;
  /** The main column below the top bar; it scrolls its own content. */
  children: ReactNode;
};

export function AppShell({ header, children }: AppShellProps) {
  const [drawerOpen, setDrawerOpen] = useState(false);

  return (
    <Dialog.Root open={drawerOpen} onOpenChange={setDrawerOpen}>
      <div className="flex h-dvh">
        <aside
          aria-label="Sessions"
          className="hidden w-72 shrink-0 border-r border-zinc-200 bg-zinc-50 md:flex md:flex-col dark:border-zinc-800 dark:bg-zinc-900"
        >
          <SessionsSidebar />
        </aside>

        <Dialog.Portal>
          <Dialog.Overlay className="fixed inset-0 z-40 bg-black/40 md:hidden" />
          <Dialog.Content
            aria-describedby={undefined}
            className="fixed inset-y-0 left-0 z-50 flex w-72 max-w-[85vw] flex-col bg-zinc-50 shadow-xl md:hidden dark:bg-zinc-900"
          >
            <Dialog.Title className="sr-only">Sessions</Dialog.Title>
            <SessionsSidebar onNavigate={() => setDrawerOpen(false)} />
            <Dialog.Close
              aria-label="Close sessions"
              className="absolute top-3 right-3 rounded-md p-1.5 text-zinc-500 hover:bg-zinc-200 focus-visible:outline-2 focus-visible:outline-blue-500 dark:hover:bg-zinc-800"
            >
              <CloseIcon />
            </Dialog.Close>
          </Dialog.Content>
        </Dialog.Portal>

        <div className="flex min-w-0 flex-1 flex-col">
          <header className="flex h-12 shrink-0 items-center gap-2 border-b border-zinc-200 px-3 dark:border-zinc-800">
            <Dialog.Trigger
              aria-label="Open sessions"
              className="rounded-md p-1.5 text-zinc-600 hover:bg-zinc-100 focus-visible:outline-2 focus-visible:outline-blue-500 md:hidden dark:text-zinc-300 dark:hover:bg-zinc-800"
            >
              <MenuIcon />
            </Dialog.Trigger>
            {header ?? <span className="font-semibold tracking-tight md:hidden">Quanta</span>}
          </header>
          <main className="flex min-h-0 flex-1 flex-col">{children}</main>
        </div>
      </div>
    </Dialog.Root>
  );
}
