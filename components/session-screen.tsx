'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { GitFork } from 'lucide-react';
import { useRouter } from 'next/navigation';
import { useEffect, useState } from 'react';
import type { SessionDetail, SessionView } from '@/lib/protocol';
import { refreshSessions, sessionApi, sessionsKey } from './api';
import { AppShell } from './app-shell';
import { Chat } from './chat/chat';
import { ErrorAlert } from './error-alert';
import { ShareButton } from './share-dialog';
import { Badge } from './ui/badge';
import { Button } from './ui/button';

export function SessionScreen({ session, messages, hasEarlier, widgetStates }: SessionDetail) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const [caughtUp, setCaughtUp] = useState<SessionView>();
  // The page stays mounted from one session to the next (client-side navigation, Back).
  const caughtUpTitle = caughtUp?.id === session.id ? caughtUp.title : undefined;
  const title = useSessionTitle(session) ?? caughtUpTitle ?? session.title;
  // The server set the tab's title for the page as loaded; a turn or a rename retitles the
  // session later, with no navigation. "%s · Quanta" as in app/layout.tsx.
  useEffect(() => {
    document.title = `${title} · Quanta`;
  }, [title]);
  const fork = useMutation({
    mutationFn: () => sessionApi.fork(session.id),
    onSuccess: ({ session: forked }) => {
      void refreshSessions(queryClient);
      router.push(`/c/${forked.id}`);
    },
  });

  const header = (
    <div className="flex min-w-0 flex-1 items-center gap-2">
      <h1 className="min-w-0 flex-1 truncate font-semibold">{title}</h1>
      {session.isOwner ? (
        <ShareButton session={session} />
      ) : (
        <>
          <Badge variant="secondary">Read-only</Badge>
          <Button size="sm" pending={fork.isPending} onClick={() => fork.mutate()}>
            <GitFork aria-hidden />
            Fork to continue
          </Button>
        </>
      )}
    </div>
  );

  return (
    <AppShell header={header}>
      {fork.error && (
        <div className="mx-auto w-full max-w-3xl px-4 pt-3">
          <ErrorAlert>{fork.error.message}</ErrorAlert>
        </div>
      )}
      <Chat
        // Another session is another chat: its own stream, resumed when it mounts.
        key={session.id}
        session={session}
        initialMessages={messages}
        initialHasEarlier={hasEarlier}
        initialWidgetStates={widgetStates}
        readOnlyReason={
          session.isOwner
            ? undefined
            : 'This session is read-only. Fork it to continue the conversation.'
        }
        onSessionView={setCaughtUp}
      />
    </AppShell>
  );
}

/**
 * The owner's session title as the sessions list has it: the list is refetched after each
 * turn (the first one titles the session) and each rename, so the header follows without a
 * reload of the page. Undefined for a reader, or before the list has it.
 */
function useSessionTitle(session: SessionView): string | undefined {
  return useQuery({
    queryKey: sessionsKey,
    queryFn: sessionApi.list,
    enabled: session.isOwner,
    select: (page) => page.sessions.find(({ id }) => id === session.id)?.title,
  }).data;
}
