'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import type { SessionDetail } from '@/lib/protocol';
import { refreshSessions, sessionApi } from './api';
import { AppShell } from './app-shell';
import { Chat } from './chat/chat';
import { primaryButton } from './modal';
import { ShareButton } from './share-dialog';

export function SessionScreen({ session, messages, widgetStates }: SessionDetail) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const fork = useMutation({
    mutationFn: () => sessionApi.fork(session.id),
    onSuccess: ({ session: forked }) => {
      void refreshSessions(queryClient);
      router.push(`/c/${forked.id}`);
    },
  });

  const header = (
    <div className="flex min-w-0 flex-1 items-center gap-2">
      <h1 className="min-w-0 flex-1 truncate font-semibold">{session.title}</h1>
      {session.isOwner ? (
        <ShareButton session={session} />
      ) : (
        <>
          <span className="rounded bg-zinc-100 px-2 py-0.5 text-xs text-zinc-600 dark:bg-zinc-800 dark:text-zinc-300">
            Read-only
          </span>
          <button
            type="button"
            className={primaryButton}
            disabled={fork.isPending}
            onClick={() => fork.mutate()}
          >
            {fork.isPending ? 'Forking…' : 'Fork to continue'}
          </button>
        </>
      )}
    </div>
  );

  return (
    <AppShell header={header}>
      {fork.error && (
        <p role="alert" className="px-4 pt-2 text-center text-sm text-red-600">
          {fork.error.message}
        </p>
      )}
      <Chat
        session={session}
        initialMessages={messages}
        initialWidgetStates={widgetStates}
        readOnlyReason={
          session.isOwner
            ? undefined
            : 'This session is read-only. Fork it to continue the conversation.'
        }
      />
    </AppShell>
  );
}
