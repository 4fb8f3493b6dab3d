import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { expect, test } from 'vitest';
import { refreshSessions, sessionsKey } from '@/components/api';

// The cold-start race: the sidebar's first list fetch is still in flight when "New chat"
// creates a session. The list must end up with the new session, not the fetch's older answer.
test('a change made while the first list fetch is in flight shows up in the list', async () => {
  const server: string[] = [];
  let answerFirst: (() => void) | undefined;
  let calls = 0;
  const client = new QueryClient({ defaultOptions: { queries: { staleTime: 30_000 } } });
  const observer = new QueryObserver(client, {
    queryKey: sessionsKey,
    queryFn: async () => {
      calls += 1;
      const snapshot = [...server];
      if (calls === 1) await new Promise<void>((resolve) => (answerFirst = resolve));
      return snapshot;
    },
  });
  const unsubscribe = observer.subscribe(() => {});
  await Promise.resolve();

  server.push('new chat');
  const refreshed = refreshSessions(client);
  answerFirst?.();
  await refreshed;

  expect(client.getQueryData(sessionsKey)).toEqual(['new chat']);
  unsubscribe();
});
