'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useId, useRef, useState } from 'react';
import { MAX_TITLE, type SessionView } from '@/lib/protocol';
import { refreshSessions, sessionApi } from './api';
import { ConfirmDialog } from './confirm-dialog';
import { focusComposer } from './focus-composer';
import type { ModalProps } from './modal';
import { Input } from './ui/input';

/** A sidebar row's dialog: mounted while open, so each opening starts afresh. */
type SessionDialogProps = Required<Pick<ModalProps, 'onOpenChange' | 'onCloseAutoFocus'>> & {
  session: SessionView;
  /** The session open on this page, whose header shows the title too. */
  current: boolean;
};

export function RenameSessionDialog({ session, current, ...modal }: SessionDialogProps) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const [title, setTitle] = useState(session.title);
  const fieldId = useId();
  const rename = useMutation({
    mutationFn: () => sessionApi.update(session.id, { title: title.trim() }),
    onSuccess: () => {
      modal.onOpenChange(false);
      void refreshSessions(queryClient);
      // The page's header and its document title come from the server.
      if (current) router.refresh();
    },
  });

  return (
    <ConfirmDialog
      {...modal}
      open
      title="Rename session"
      confirmLabel="Save"
      tone="primary"
      disabled={!title.trim()}
      pending={rename.isPending}
      error={rename.error}
      onConfirm={() => rename.mutate()}
    >
      <div className="grid gap-1.5">
        <label htmlFor={fieldId} className="text-sm font-medium">
          Title
        </label>
        <Input
          id={fieldId}
          value={title}
          maxLength={MAX_TITLE}
          onChange={(event) => setTitle(event.target.value)}
        />
      </div>
    </ConfirmDialog>
  );
}

export function DeleteSessionDialog({
  session,
  current,
  onCloseAutoFocus,
  ...modal
}: SessionDialogProps) {
  const router = useRouter();
  const queryClient = useQueryClient();
  // Its row is about to go: focus returns to the conversation rather than to the row's menu.
  const deleted = useRef(false);
  const remove = useMutation({
    mutationFn: () => sessionApi.remove(session.id),
    onSuccess: () => {
      deleted.current = true;
      modal.onOpenChange(false);
      void refreshSessions(queryClient);
      if (current) router.push('/');
    },
  });

  return (
    <ConfirmDialog
      {...modal}
      open
      onCloseAutoFocus={(event) => {
        if (!deleted.current) return onCloseAutoFocus(event);
        event.preventDefault();
        focusComposer();
      }}
      title="Delete session?"
      description={`“${session.title}” and its messages will be gone for good, also for anyone you shared it with.`}
      confirmLabel="Delete"
      tone="danger"
      disabled={false}
      pending={remove.isPending}
      error={remove.error}
      onConfirm={() => remove.mutate()}
    />
  );
}
