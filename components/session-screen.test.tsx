// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, expect, it, vi } from 'vitest';
import type { SessionPage, SessionView } from '@/lib/protocol';
import { sessionView } from '../tests/helpers/session-view';
import { refreshSessions } from './api';
import { SessionScreen } from './session-screen';

vi.mock('next/navigation', () => ({ useRouter: () => ({ push: () => {}, refresh: () => {} }) }));
// The shell and the chat are someone else's tests: here, a header and a catch-up to report.
vi.mock('./app-shell', () => ({
  AppShell: ({ header, children }: { header: ReactNode; children: ReactNode }) => (
    <>
      <header>{header}</header>
      {children}
    </>
  ),
}));
vi.mock('./share-dialog', () => ({ ShareButton: () => <button type="button">Share</button> }));
// Each chat mounted, by session id: a chat reads its session's running turn when it mounts.
const mounts = vi.hoisted((): string[] => []);
vi.mock('./chat/chat', async () => {
  const { useEffect } = await import('react');
  return {
    Chat: ({
      session,
      onSessionView,
    }: {
      session: SessionView;
      onSessionView: (s: SessionView) => void;
    }) => {
      useEffect(() => void mounts.push(session.id), []);
      return (
        <button
          type="button"
          onClick={() => onSessionView({ ...session, title: 'Titled elsewhere' })}
        >
          Catch up
        </button>
      );
    },
  };
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const session = sessionView({ title: 'New chat', visibility: 'public' });

function show(view: SessionView, list: SessionPage = { sessions: [], nextCursor: null }) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => Response.json(list)),
  );
  const queryClient = new QueryClient();
  const page = (view: SessionView) => (
    <QueryClientProvider client={queryClient}>
      <SessionScreen session={view} messages={[]} hasEarlier={false} widgetStates={{}} />
    </QueryClientProvider>
  );
  const { rerender } = render(page(view));
  return { queryClient, navigate: (to: SessionView) => rerender(page(to)) };
}

const title = () => screen.getByRole('heading', { level: 1 });

it('shows the owner the title the sessions list has: a turn titles it without a page reload', async () => {
  const { queryClient } = show(session, { sessions: [session], nextCursor: null });
  expect(title()).toHaveTextContent('New chat');
  // The turn ended: the server titled the session, and the list is refetched.
  const titled = { sessions: [{ ...session, title: 'What is 2 + 2' }], nextCursor: null };
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => Response.json(titled)),
  );
  await act(() => refreshSessions(queryClient));
  await waitFor(() => expect(title()).toHaveTextContent('What is 2 + 2'));
  expect(document.title).toBe('What is 2 + 2 · Quanta');
});

it('shows a reader the title a catch-up brought, read-only, with Fork to continue', () => {
  show({ ...session, isOwner: false });
  expect(screen.getByText('Read-only')).toBeInTheDocument();
  expect(screen.getByRole('button', { name: 'Fork to continue' })).toBeInTheDocument();
  expect(screen.queryByRole('button', { name: 'Share' })).not.toBeInTheDocument();
  fireEvent.click(screen.getByRole('button', { name: 'Catch up' }));
  expect(title()).toHaveTextContent('Titled elsewhere');
  expect(document.title).toBe('Titled elsewhere · Quanta');
});

it('mounts a new chat for another session and again on the way back, each reading its turn', () => {
  mounts.length = 0;
  const { navigate } = show(session);
  navigate({ ...session, id: 's2', title: 'Other' });
  navigate(session);
  expect(mounts).toEqual(['s1', 's2', 's1']);
});

it('does not take the title a catch-up brought for one session to the next', () => {
  const { navigate } = show({ ...session, isOwner: false });
  fireEvent.click(screen.getByRole('button', { name: 'Catch up' }));
  navigate({ ...session, id: 's2', title: 'Other', isOwner: false });
  expect(title()).toHaveTextContent('Other');
});
