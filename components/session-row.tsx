'use client';

import { EllipsisIcon, PencilIcon, Share2Icon, Trash2Icon } from 'lucide-react';
import { type ComponentProps, memo, useLayoutEffect, useRef, useState } from 'react';
import type { SessionView } from '@/lib/protocol';
import { IntentLink } from './intent-link';
import { returnFocusTo } from './modal';
import { DeleteSessionDialog, RenameSessionDialog } from './session-dialogs';
import { ShareDialog } from './share-dialog';
import { Button } from './ui/button';
import { cn } from './ui/cn';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from './ui/dropdown-menu';
import { focusRing } from './ui/focus-ring';

type SessionRowProps = {
  session: SessionView;
  /** The session open on this page. */
  current: boolean;
  onNavigate?: () => void;
};

/**
 * A session in the sidebar: its link, and a ⋯ menu (rename, share, delete) shown on hover and on
 * keyboard focus, always on touch screens. Two tab stops: the link and the menu's button.
 * Memoised: the list is refetched after every turn, and the query keeps the objects of the
 * sessions that did not change, so only the rows that did render again.
 *
 * The menu (Radix's, with its listeners and its popper) mounts once the row is reached for: a
 * pointer over its link or button, focus on either. Mounted with every row, it was much of a
 * row's render: the phone's drawer, 24 rows, opened in 74 ms of CPU; mounted on reach, in 56.
 * Focus mounts it before a key can reach the button; a press can come first (a finger's tap
 * brings its pointer and its press at once), and then the button opens the menu itself, as its
 * trigger would; so does a click that comes alone (an assistive technology's).
 */
export const SessionRow = memo(function SessionRow({
  session,
  current,
  onNavigate,
}: SessionRowProps) {
  const [dialog, setDialog] = useState<'rename' | 'share' | 'delete' | null>(null);
  const [menuMounted, setMenuMounted] = useState(false);
  const [menuOpen, setMenuOpen] = useState(false);
  const menuButton = useRef<HTMLButtonElement>(null);
  // The menu's trigger is another element than the button it replaces: focus moves on to it.
  const buttonFocused = useRef(false);
  useLayoutEffect(() => {
    if (menuMounted && buttonFocused.current) menuButton.current?.focus();
  }, [menuMounted]);
  const mountMenu = () => {
    if (menuMounted) return;
    buttonFocused.current = document.activeElement === menuButton.current;
    setMenuMounted(true);
  };
  const openMenu = () => {
    mountMenu();
    setMenuOpen(true);
  };
  // A dialog opened from the menu takes focus itself: the menu must not put it back on its button.
  const dialogOpening = useRef(false);
  // Each dialog is mounted while open. The menu item that opened it is gone when it closes, so
  // focus goes back to the ⋯ button.
  const dialogProps = {
    session,
    current,
    onOpenChange: (isOpen: boolean) => {
      if (!isOpen) setDialog(null);
    },
    onCloseAutoFocus: returnFocusTo(menuButton),
  };
  const open = (which: 'rename' | 'share' | 'delete') => {
    dialogOpening.current = true;
    setDialog(which);
  };

  return (
    <div className="group/row relative">
      <IntentLink
        href={`/c/${session.id}`}
        onClick={onNavigate}
        onPointerEnter={mountMenu}
        onFocus={mountMenu}
        aria-current={current ? 'page' : undefined}
        title={session.title}
        className={cn(
          'flex h-9 min-w-0 items-center rounded-md px-2 text-sm pointer-coarse:h-11',
          'hover:bg-sidebar-accent/70 aria-[current=page]:bg-sidebar-accent aria-[current=page]:font-medium aria-[current=page]:text-sidebar-accent-foreground',
          // Room for the ⋯ button whenever it shows.
          'group-focus-within/row:pr-9 group-hover/row:pr-9 group-has-data-[state=open]/row:pr-9 pointer-coarse:pr-9',
          focusRing,
          'focus-visible:-outline-offset-2',
        )}
      >
        <span className="truncate">{session.title}</span>
      </IntentLink>
      {menuMounted ? (
        <DropdownMenu modal={false} open={menuOpen} onOpenChange={setMenuOpen}>
          <DropdownMenuTrigger asChild>
            <MenuButton ref={menuButton} sessionTitle={session.title} />
          </DropdownMenuTrigger>
          <DropdownMenuContent
            align="end"
            onCloseAutoFocus={(event) => {
              if (!dialogOpening.current) return;
              dialogOpening.current = false;
              event.preventDefault();
            }}
          >
            <DropdownMenuItem onSelect={() => open('rename')}>
              <PencilIcon aria-hidden />
              Rename
            </DropdownMenuItem>
            <DropdownMenuItem onSelect={() => open('share')}>
              <Share2Icon aria-hidden />
              Share
            </DropdownMenuItem>
            <DropdownMenuSeparator />
            <DropdownMenuItem variant="destructive" onSelect={() => open('delete')}>
              <Trash2Icon aria-hidden />
              Delete
            </DropdownMenuItem>
          </DropdownMenuContent>
        </DropdownMenu>
      ) : (
        <MenuButton
          ref={menuButton}
          sessionTitle={session.title}
          type="button"
          aria-haspopup="menu"
          aria-expanded={false}
          onPointerEnter={mountMenu}
          onFocus={mountMenu}
          onPointerDown={(event) => {
            if (event.button !== 0 || event.ctrlKey) return;
            // As the trigger does: the menu takes focus, not the button.
            event.preventDefault();
            openMenu();
          }}
          // A click with no press before it: an assistive technology's, or a script's.
          onClick={(event) => {
            if (event.detail === 0) openMenu();
          }}
        />
      )}

      {dialog === 'rename' && <RenameSessionDialog {...dialogProps} />}
      {dialog === 'share' && (
        <ShareDialog
          session={session}
          open
          onOpenChange={dialogProps.onOpenChange}
          onCloseAutoFocus={dialogProps.onCloseAutoFocus}
        />
      )}
      {dialog === 'delete' && <DeleteSessionDialog {...dialogProps} />}
    </div>
  );
});

/** The row's ⋯ button, the menu's trigger once the menu has mounted. */
function MenuButton({
  sessionTitle,
  ...props
}: ComponentProps<typeof Button> & { sessionTitle: string }) {
  return (
    <Button
      variant="ghost"
      size="icon-sm"
      aria-label={`Actions for ${sessionTitle}`}
      className={cn(
        'absolute top-1/2 right-1 -translate-y-1/2 hover:bg-sidebar/60',
        'opacity-0 group-focus-within/row:opacity-100 group-hover/row:opacity-100 data-[state=open]:opacity-100 pointer-coarse:opacity-100',
      )}
      {...props}
    >
      <EllipsisIcon aria-hidden />
    </Button>
  );
}
