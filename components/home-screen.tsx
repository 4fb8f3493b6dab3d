'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { refreshSessions, sessionApi } from './api';
import { AppShell } from './app-shell';
import { leavePrompt } from './chat/pending-prompt';
import { Composer } from './composer';
import { EmptyState } from './empty-state';

/** `/`: what Quanta is, and a composer whose first message starts a new session. */
export function HomeScreen() {
  const router = useRouter();
  const queryClient = useQueryClient();
  const start = useMutation({
    mutationFn: async (text: string) => ({ text, ...(await sessionApi.create()) }),
    onSuccess: ({ text, session }) => {
      leavePrompt(session.id, text);
      void refreshSessions(queryClient);
      router.push(`/c/${session.id}`);
    },
  });

  return (
    <AppShell>
      <div className="min-h-0 flex-1 overflow-y-auto">
        <EmptyState />
      </div>
      <div className="shrink-0 border-t border-zinc-200 p-3 dark:border-zinc-800">
        {start.error && (
          <p role="alert" className="mb-2 text-center text-sm text-red-600">
            {start.error.message}
          </p>
        )}
        <Composer
          onSend={(text) => start.mutateAsync(text)}
          disabledReason={start.isPending ? 'Starting a new chat…' : undefined}
        />
      </div>
    </AppShell>
  );
}
