'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useEffect, useState } from 'react';
import { refreshSessions, sessionApi } from './api';
import { AppShell } from './app-shell';
import { leavePrompt } from './chat/pending-prompt';
import { Composer } from './composer';
import { EmptyState } from './empty-state';
import { ErrorAlert } from './error-alert';
import { focusComposer } from './focus-composer';
import { ModelChoice } from './model-choice';
import { Suggestions } from './suggestions';

/**
 * `/`, a new chat: a greeting, suggestions, the composer and the model. Nothing is stored until
 * the first message, which creates the session and goes on to it.
 */
export function HomeScreen() {
  const router = useRouter();
  const queryClient = useQueryClient();
  /** The model picked here, or null for the server's default. */
  const [model, setModel] = useState<string | null>(null);
  const start = useMutation({
    mutationFn: async (text: string) => ({
      text,
      ...(await sessionApi.create(model === null ? {} : { model })),
    }),
    onSuccess: ({ text, session }) => {
      leavePrompt(session.id, text);
      void refreshSessions(queryClient);
      router.push(`/c/${session.id}`);
    },
  });
  // A new chat starts in the composer, whether the page was loaded or New chat led here.
  useEffect(focusComposer, []);

  return (
    <AppShell>
      <div className="min-h-0 flex-1 overflow-y-auto">
        <EmptyState />
      </div>
      <div className="mx-auto flex w-full max-w-3xl shrink-0 flex-col gap-3 px-3 pb-3">
        <Suggestions onSend={(prompt) => start.mutate(prompt)} pending={start.isPending} />
        {start.error && <ErrorAlert>{start.error.message}</ErrorAlert>}
        <Composer
          onSend={(text) => start.mutateAsync(text)}
          disabledReason={start.isPending ? 'Starting a new chat…' : undefined}
        />
        <ModelChoice value={model} onChange={setModel} />
      </div>
    </AppShell>
  );
}
