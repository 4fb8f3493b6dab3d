// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import type { SessionView } from '@/lib/protocol';
import { sessionsKey } from './api';
import { AppShell } from './app-shell';
import { SessionsSidebar } from './sessions-sidebar';

// How the sidebar's list renders, seen through its chats' links: each takes 10 ms to render
// (twice what React renders before it lets another task in) and notes that it rendered.

vi.mock('next/navigation', () => ({
  usePathname: () => '/',
  useRouter: () => ({ push: vi.fn(), refresh: vi.fn() }),
}));

const order: string[] = [];
/** The row whose render sets off another task, and notes whether the skeleton still shows. */
let marked = '/c/s1';
let loadingAtMarked: boolean | undefined;

vi.mock('./intent-link', () => ({
  IntentLink: ({ href, children }: { href: string; children: ReactNode }) => {
    // New chat's link is one too.
    if (!href.startsWith('/c/')) return <a href={href}>{children}</a>;
    const until = performance.now() + 10;
    while (performance.now() < until);
    order.push(href);
    if (href === marked) {
      loadingAtMarked = document.querySelector('[aria-busy="true"]') !== null;
      setImmediate(() => order.push('another task'));
    }
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
  marked = '/c/s1';
  loadingAtMarked = undefined;
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

it('renders the chats it receives in slices, in the place of the skeleton', async () => {
  renderSidebar();
  await screen.findByRole('link', { name: 'Chat s4' });
  // The task the first row set off ran before the last row rendered, not after the whole list.
  expect(order).toEqual(['/c/s1', 'another task', '/c/s2', '/c/s3', '/c/s4']);
  // The skeleton showed until the rows replaced it: never an empty list between them.
  expect(loadingAtMarked).toBe(true);
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

it('mounted with its chats at hand, renders a screenful at once and the rest after other tasks', async () => {
  const ids = Array.from({ length: 30 }, (_, index) => `m${index + 1}`);
  // Fresh for good: no refetch replaces them as it mounts.
  const queryClient = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity } } });
  queryClient.setQueryData(sessionsKey, { sessions: ids.map((id) => session(id, `Chat ${id}`)) });
  marked = '/c/m1';
  // Mounted as the phone's drawer mounts it, outside a test's act: React's scheduler runs it.
  const environment = globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean };
  const acting = environment.IS_REACT_ACT_ENVIRONMENT;
  environment.IS_REACT_ACT_ENVIRONMENT = false;
  const container = document.createElement('div');
  document.body.append(container);
  const root = createRoot(container);
  try {
    root.render(
      <QueryClientProvider client={queryClient}>
        <SessionsSidebar />
      </QueryClientProvider>,
    );
    await vi.waitFor(() => expect(order).toHaveLength(31), { timeout: 5_000 });
    const hrefs = ids.map((id) => `/c/${id}`);
    expect(order).toEqual([...hrefs.slice(0, 24), 'another task', ...hrefs.slice(24)]);
  } finally {
    root.unmount();
    container.remove();
    environment.IS_REACT_ACT_ENVIRONMENT = acting;
  }
});

it('renders no row of the open drawer again when the page around it renders', async () => {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const page = (title: string) => (
    <QueryClientProvider client={queryClient}>
      <AppShell header={<h1>{title}</h1>}>
        <p>The chat</p>
      </AppShell>
    </QueryClientProvider>
  );
  const { rerender } = render(page('New chat'));
  fireEvent.click(screen.getByRole('button', { name: 'Open sessions' }));
  await within(await screen.findByRole('dialog')).findByRole('link', { name: 'Chat s4' });
  order.length = 0;

  // The page's title arrives (the first turn named the session): the page renders again.
  rerender(page('Trip plans'));
  // (Behind the open drawer, the page is hidden from the accessibility tree.)
  await screen.findByText('Trip plans');
  expect(order).toEqual([]);
});
