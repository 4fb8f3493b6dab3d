import type { QueryClient } from '@tanstack/react-query';
import {
  type ApiErrorBody,
  MAX_PAGE,
  type ModelList,
  type SessionPage,
  type SessionResponse,
  type SessionView,
} from '@/lib/protocol';

/**
 * A route's error answer (`{ error: { code, message, current? } }`), or a failure to reach it;
 * `current` is the server's state when a change was refused as stale.
 */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly code?: string,
    readonly current?: unknown,
  ) {
    super(message);
  }
}

/** Calls a Quanta route; an error answer becomes an ApiError with the server's message. */
export async function api<T>(path: string, init?: { method?: string; body?: unknown }): Promise<T> {
  const response = await fetch(path, {
    method: init?.method ?? 'GET',
    headers: init?.body === undefined ? undefined : { 'content-type': 'application/json' },
    body: init?.body === undefined ? undefined : JSON.stringify(init.body),
  });
  if (!response.ok) throw await apiError(response);
  return (response.status === 204 ? undefined : await response.json()) as T;
}

/** The ApiError of a failed answer: the server's code and message, or its status. */
export async function apiError(response: Response): Promise<ApiError> {
  const payload: Partial<ApiErrorBody> | undefined = await response.json().catch(() => undefined);
  const error = payload?.error;
  return new ApiError(
    error?.message ?? `Request failed (${response.status})`,
    error?.code,
    error?.current,
  );
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
  list: () => api<SessionPage>(`/api/sessions?limit=${MAX_PAGE}`),
  /** Without a model, the session uses the server's default. */
  create: (body: { model?: string } = {}) =>
    api<SessionResponse>('/api/sessions', { method: 'POST', body }),
  update: (id: string, patch: Partial<Pick<SessionView, 'title' | 'visibility' | 'model'>>) =>
    api<SessionResponse>(`/api/sessions/${id}`, { method: 'PATCH', body: patch }),
  remove: (id: string) => api<void>(`/api/sessions/${id}`, { method: 'DELETE' }),
  fork: (id: string) => api<SessionResponse>(`/api/sessions/${id}/fork`, { method: 'POST' }),
};

export const modelsKey = ['models'] as const;

export const listModels = () => api<ModelList>('/api/models');
