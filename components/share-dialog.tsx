'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Share2Icon } from 'lucide-react';
import { useRouter } from 'next/navigation';
import { useId, useState } from 'react';
import type { SessionView } from '@/lib/protocol';
import { refreshSessions, sessionApi } from './api';
import { CopyButton } from './copy-button';
import { ErrorAlert } from './error-alert';
import { Modal, type ModalProps } from './modal';
import { Button } from './ui/button';
import { Input } from './ui/input';

type ShareDialogProps = Omit<ModalProps, 'title' | 'description' | 'children'> & {
  session: SessionView;
};

/** The owner's sharing of a session: a public link, on or off, and the link to copy. */
export function ShareDialog({ session, ...modal }: ShareDialogProps) {
  return (
    <Modal
      {...modal}
      title="Share session"
      description="Anyone with a public link can read this session and fork it into one of their own. Only you can change it."
    >
      <ShareSettings session={session} />
    </Modal>
  );
}

/** The session's Share button, for its page's top bar. */
export function ShareButton({ session }: { session: SessionView }) {
  return (
    <ShareDialog
      session={session}
      trigger={
        <Button variant="outline" size="sm">
          <Share2Icon aria-hidden />
          Share
        </Button>
      }
    />
  );
}

// Mounted only while the dialog is open, so each opening starts from the session as it is now.
function ShareSettings({ session }: { session: SessionView }) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const hintId = useId();
  // The choice shows in the same render as the click (react-query reports `isPending` a tick
  // later, and a controlled checkbox would flick back meanwhile), until the server answers.
  const [chosen, setChosen] = useState<SessionView['visibility'] | null>(null);
  // What the server holds: the link is offered only once it works for whoever gets it.
  const [saved, setSaved] = useState(session.visibility);
  const toggle = useMutation({
    mutationFn: (visibility: SessionView['visibility']) =>
      sessionApi.update(session.id, { visibility }),
    onSuccess: ({ session: updated }) => {
      setSaved(updated.visibility);
      setChosen(null);
      void refreshSessions(queryClient);
      // The session's page holds its own copy of the session, for the next time this opens.
      router.refresh();
    },
    onError: () => setChosen(null),
  });
  const isPublic = (chosen ?? saved) === 'public';
  const linkWorks = isPublic && saved === 'public';
  const url = `${window.location.origin}/c/${session.id}`;

  return (
    <div className="grid gap-4">
      <label className="flex items-center gap-3 text-sm font-medium">
        <input
          type="checkbox"
          checked={isPublic}
          // Not `disabled` while the change is saved: that would drop keyboard focus.
          aria-disabled={toggle.isPending || undefined}
          aria-describedby={hintId}
          onChange={() => {
            if (toggle.isPending) return;
            const next = isPublic ? 'private' : 'public';
            setChosen(next);
            toggle.mutate(next);
          }}
          className="size-4 accent-primary focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
        />
        Public link
      </label>
      <p id={hintId} role="status" className="-mt-2 text-sm text-muted-foreground">
        {linkWorks
          ? 'Anyone with the link can read it.'
          : isPublic
            ? 'Making the link public…'
            : 'Only you can see this session.'}
      </p>
      {toggle.error && <ErrorAlert>{toggle.error.message}</ErrorAlert>}
      {linkWorks && (
        <div className="flex flex-col gap-2 sm:flex-row sm:items-center">
          <Input
            readOnly
            aria-label="Share link"
            value={url}
            onFocus={(event) => event.target.select()}
          />
          <CopyButton text={url} label="Copy link" copiedMessage="Link copied" />
        </div>
      )}
    </div>
  );
}
