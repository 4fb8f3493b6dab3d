import type { QueryClient } from '@tanstack/react-query';
import type { SessionView } from '@/lib/sessions/types';

/** Calls a Quanta route; an error answer becomes an Error with the server's message. */
export async function api<T>(path: string, init?: { method?: string; body?: unknown }): Promise<T> {
  const response = await fetch(path, {
    method: init?.method ?? 'GET',
    headers: init?.body === undefined ? undefined : { 'content-type': 'application/json' },
    body: init?.body === undefined ? undefined : JSON.stringify(init.body),
  });
  if (!response.ok) throw new Error(await errorMessage(response));
  return (response.status === 204 ? undefined : await response.json()) as T;
}

/** The server's `{ error: { message } }` of a failed answer, or its status. */
export async function errorMessage(response: Response): Promise<string> {
  const payload = await response.json().catch(() => undefined);
  return payload?.error?.message ?? `Request failed (${response.status})`;
}

export const sessionsKey = ['sessions'] as const;

/**
 * Refetches the session list after a change. A fetch still in flight started before the change,
 * so it is cancelled first: while the list has no data yet, react-query would otherwise answer
 * the refetch with that in-flight fetch and keep its stale answer as fresh.
 */
export async function refreshSessions(queryClient: QueryClient): Promise<void> {
  await queryClient.cancelQueries({ queryKey: sessionsKey });
  await queryClient.invalidateQueries({ queryKey: sessionsKey });
}

export const sessionApi = {
  list: () =>
    api<{ sessions: SessionView[]; nextCursor: string | null }>('/api/sessions?limit=100'),
  create: () => api<{ session: SessionView }>('/api/sessions', { method: 'POST', body: {} }),
  update: (id: string, patch: Partial<Pick<SessionView, 'title' | 'visibility' | 'model'>>) =>
    api<{ session: SessionView }>(`/api/sessions/${id}`, { method: 'PATCH', body: patch }),
  remove: (id: string) => api<void>(`/api/sessions/${id}`, { method: 'DELETE' }),
  fork: (id: string) =>
    api<{ session: SessionView }>(`/api/sessions/${id}/fork`, { method: 'POST' }),
};
