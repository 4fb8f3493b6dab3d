// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, render, screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import type { SessionView } from '@/lib/protocol';
import { SessionsSidebar } from './sessions-sidebar';

// How the sidebar's list renders, seen through its links: each takes 10 ms to render (twice
// what React renders before it lets another task in) and notes that it rendered.

vi.mock('next/navigation', () => ({
  usePathname: () => '/',
  useRouter: () => ({ push: vi.fn(), refresh: vi.fn() }),
}));

const order: string[] = [];

vi.mock('./intent-link', () => ({
  IntentLink: ({ href, children }: { href: string; children: ReactNode }) => {
    const until = performance.now() + 10;
    while (performance.now() < until);
    order.push(href);
    if (href === '/c/s1') setImmediate(() => order.push('another task'));
    return <a href={href}>{children}</a>;
  },
}));

const session = (id: string, title: string): SessionView => ({
  id,
  title,
  model: null,
  visibility: 'private',
  createdAt: '2026-03-10T08:00:00.000Z',
  updatedAt: '2026-03-10T08:00:00.000Z',
  turnActive: false,
  isOwner: true,
});

let sessions: SessionView[];

beforeEach(() => {
  order.length = 0;
  sessions = ['s1', 's2', 's3', 's4'].map((id) => session(id, `Chat ${id}`));
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => Response.json({ sessions: sessions.map((one) => ({ ...one })) })),
  );
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderSidebar() {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={queryClient}>
      <SessionsSidebar />
    </QueryClientProvider>,
  );
  return queryClient;
}

it('renders the chats it receives in slices, letting other tasks run between them', async () => {
  renderSidebar();
  await screen.findByRole('link', { name: 'Chat s4' });
  // The task the first row set off ran before the last row rendered, not after the whole list.
  expect(order).toEqual(['/c/s1', 'another task', '/c/s2', '/c/s3', '/c/s4']);
});

it('renders again only the rows of the chats that changed when the list is refetched', async () => {
  const queryClient = renderSidebar();
  await screen.findByRole('link', { name: 'Chat s4' });
  order.length = 0;

  sessions = sessions.map((one) => (one.id === 's3' ? { ...one, title: 'Renamed' } : one));
  await act(() => queryClient.invalidateQueries());
  await screen.findByRole('link', { name: 'Renamed' });
  expect(order).toEqual(['/c/s3']);
});
