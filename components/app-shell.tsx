'use client';

import { MenuIcon } from 'lucide-react';
import { type ReactNode, useCallback, useRef, useState } from 'react';
import { focusComposer } from './focus-composer';
import { SessionsSidebar } from './sessions-sidebar';
import { Button } from './ui/button';
import { cn } from './ui/cn';
import { Sheet, SheetContent, SheetTitle, SheetTrigger } from './ui/sheet';

/**
 * The chat layout: a sessions sidebar beside the main column on wide screens; under 768 px the
 * sidebar is a sheet (a dialog: focus trapped, Escape closes it) opened from the top bar.
 */
type AppShellProps = {
  /**
   * What the top bar shows beside the menu button: a title, actions. Without it the bar shows
   * only on phones, for the menu button.
   */
  header?: ReactNode;
  /** The main column below the top bar; it scrolls its own content. */
  children: ReactNode;
};

export function AppShell({ header, children }: AppShellProps) {
  const [sheetOpen, setSheetOpen] = useState(false);
  // Set when a link in the sheet closed it: focus goes on to the page, not back to the menu button.
  const navigated = useRef(false);
  // One function for the page's life: the sidebar's rows are memoised, and a new one each render
  // would render every row of the open drawer again whenever the page did.
  const closeOnNavigate = useCallback(() => {
    navigated.current = true;
    setSheetOpen(false);
  }, []);

  return (
    <Sheet open={sheetOpen} onOpenChange={setSheetOpen}>
      <div className="flex h-dvh">
        <aside
          aria-label="Sessions"
          className="hidden w-64 shrink-0 border-r border-sidebar-border bg-sidebar text-sidebar-foreground md:flex md:flex-col"
        >
          <SessionsSidebar />
        </aside>

        <SheetContent
          side="left"
          aria-describedby={undefined}
          onCloseAutoFocus={(event) => {
            if (!navigated.current) return;
            navigated.current = false;
            event.preventDefault();
            focusComposer();
          }}
          className="w-72 max-w-[85vw] gap-0 bg-sidebar p-0 text-sidebar-foreground md:hidden"
        >
          <SheetTitle className="sr-only">Sessions</SheetTitle>
          <SessionsSidebar onNavigate={closeOnNavigate} />
        </SheetContent>

        <div className="flex min-w-0 flex-1 flex-col">
          <header
            className={cn(
              'flex h-14 shrink-0 items-center gap-2 border-b px-3',
              header === undefined && 'md:hidden',
            )}
          >
            <SheetTrigger asChild>
              <Button variant="ghost" size="icon" aria-label="Open sessions" className="md:hidden">
                <MenuIcon aria-hidden />
              </Button>
            </SheetTrigger>
            {header ?? <span className="font-semibold tracking-tight md:hidden">Quanta</span>}
          </header>
          <main className="flex min-h-0 flex-1 flex-col">{children}</main>
        </div>
      </div>
    </Sheet>
  );
}
