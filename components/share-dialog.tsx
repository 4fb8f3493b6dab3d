'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import type { SessionView } from '@/lib/protocol';
import { refreshSessions, sessionApi } from './api';
import { CopyButton } from './copy-button';
import { DialogTriggerButton } from './dialog-trigger-button';
import { secondaryButton } from './modal';

export function ShareButton({ session }: { session: SessionView }) {
  const router = useRouter();
  const queryClient = useQueryClient();
  // The choice shows in the same render as the click (react-query reports `isPending` a tick
  // later, and a controlled checkbox would flick back meanwhile); a failure reverts it.
  const [chosen, setChosen] = useState<SessionView['visibility'] | null>(null);
  const toggle = useMutation({
    mutationFn: (visibility: SessionView['visibility']) =>
      sessionApi.update(session.id, { visibility }),
    onSuccess: () => {
      void refreshSessions(queryClient);
      router.refresh();
    },
    onError: () => setChosen(null),
  });
  const isPublic = (chosen ?? session.visibility) === 'public';
  const url = typeof window === 'undefined' ? '' : `${window.location.origin}/c/${session.id}`;

  return (
    <DialogTriggerButton
      label="Share"
      className={secondaryButton}
      title="Share session"
      description={
        isPublic
          ? 'Anyone with the link can read this session and fork it. Only you can change it.'
          : 'Only you can see this session. Make it public to share a read-only link.'
      }
    >
      <label className="flex items-center gap-2 text-sm">
        <input
          type="checkbox"
          checked={isPublic}
          disabled={toggle.isPending}
          onChange={() => {
            const next = isPublic ? 'private' : 'public';
            setChosen(next);
            toggle.mutate(next);
          }}
          className="size-4 focus-visible:outline-2 focus-visible:outline-blue-500"
        />
        Public link
      </label>
      {toggle.error && (
        <p role="alert" className="mt-2 text-sm text-red-600">
          {toggle.error.message}
        </p>
      )}
      {isPublic && (
        <div className="mt-3 flex flex-col gap-2 sm:flex-row sm:items-center">
          <input
            readOnly
            aria-label="Share link"
            value={url}
            className="min-w-0 flex-1 rounded-md border border-zinc-300 bg-transparent px-2 py-1.5 text-sm dark:border-zinc-700"
          />
          <CopyButton text={url} label="Copy link" />
        </div>
      )}
    </DialogTriggerButton>
  );
}
