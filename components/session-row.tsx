'use client';

import { EllipsisIcon, PencilIcon, Share2Icon, Trash2Icon } from 'lucide-react';
import { memo, useRef, useState } from 'react';
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
 */
export const SessionRow = memo(function SessionRow({
  session,
  current,
  onNavigate,
}: SessionRowProps) {
  const [dialog, setDialog] = useState<'rename' | 'share' | 'delete' | null>(null);
  const menuButton = useRef<HTMLButtonElement>(null);
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
      <DropdownMenu modal={false}>
        <DropdownMenuTrigger asChild>
          <Button
            ref={menuButton}
            variant="ghost"
            size="icon-sm"
            aria-label={`Actions for ${session.title}`}
            className={cn(
              'absolute top-1/2 right-1 -translate-y-1/2 hover:bg-sidebar/60',
              'opacity-0 group-focus-within/row:opacity-100 group-hover/row:opacity-100 data-[state=open]:opacity-100 pointer-coarse:opacity-100',
            )}
          >
            <EllipsisIcon aria-hidden />
          </Button>
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
