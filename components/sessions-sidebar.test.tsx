// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { useEffect } from 'react';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import type { SessionView } from '@/lib/protocol';
import { SessionsSidebar } from './sessions-sidebar';

const navigation = vi.hoisted(() => ({ pathname: '/', push: vi.fn(), refresh: vi.fn() }));
vi.mock('next/navigation', () => ({
  usePathname: () => navigation.pathname,
  useRouter: () => ({ push: navigation.push, refresh: navigation.refresh, prefetch: vi.fn() }),
}));

// Each row's menu as it mounts: Radix's menu, counted.
const menusMounted = vi.hoisted(() => ({ count: 0 }));
vi.mock('./ui/dropdown-menu', async (importOriginal) => {
  const actual = await importOriginal<typeof import('./ui/dropdown-menu')>();
  return {
    ...actual,
    DropdownMenu: (props: Parameters<typeof actual.DropdownMenu>[0]) => {
      useEffect(() => {
        menusMounted.count += 1;
      }, []);
      return <actual.DropdownMenu {...props} />;
    },
  };
});

type Call = { method: string; path: string; body?: unknown };
let calls: Call[];
let sessions: SessionView[];

const session = (id: string, title: string, updatedAt: Date): SessionView => ({
  id,
  title,
  model: null,
  visibility: 'private',
  createdAt: updatedAt.toISOString(),
  updatedAt: updatedAt.toISOString(),
  turnActive: false,
  isOwner: true,
});

beforeEach(() => {
  // Only the clock is fake: react-query and Radix keep their real timers.
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date(2026, 2, 10, 9, 30));
  navigation.pathname = '/';
  calls = [];
  sessions = [
    session('s1', 'Trip plans', new Date(2026, 2, 10, 8)),
    session('s2', 'Tax return', new Date(2026, 2, 9, 20)),
    session('s3', 'Birthday gift ideas for my sister who likes climbing', new Date(2026, 2, 5)),
    session('s4', 'Old notes', new Date(2026, 0, 2)),
  ];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (path: string, init: RequestInit) => {
      const method = init.method ?? 'GET';
      calls.push({ method, path, body: init.body ? JSON.parse(String(init.body)) : undefined });
      if (path.startsWith('/api/sessions?') && method === 'GET') {
        return Response.json({ sessions, nextCursor: null });
      }
      const id = path.split('/').pop();
      if (method === 'PATCH') {
        const body = JSON.parse(String(init.body));
        // As the server does: a change makes the session the most recently updated.
        const changed = {
          ...sessions.find((one) => one.id === id),
          ...body,
          updatedAt: new Date().toISOString(),
        };
        sessions = [changed, ...sessions.filter((one) => one.id !== id)];
        return Response.json({ session: changed });
      }
      if (method === 'DELETE') {
        sessions = sessions.filter((one) => one.id !== id);
        return new Response(null, { status: 204 });
      }
      return Response.json({ error: { code: 'not_found', message: 'No.' } }, { status: 404 });
    }),
  );
});

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  navigation.push.mockReset();
  navigation.refresh.mockReset();
});

async function renderSidebar() {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <SessionsSidebar />
    </QueryClientProvider>,
  );
  await screen.findByRole('link', { name: 'Trip plans' });
}

const search = () => screen.getByRole('searchbox', { name: 'Search chats' });
const menuButton = (title: string) => screen.getByRole('button', { name: `Actions for ${title}` });

async function openMenu(title: string) {
  // Focus on the row's button mounts its menu, whose trigger takes the focus on.
  act(() => menuButton(title).focus());
  const button = menuButton(title);
  expect(button).toHaveFocus();
  fireEvent.keyDown(button, { key: 'Enter' });
  return screen.findByRole('menu');
}

async function pick(title: string, action: 'Rename' | 'Share' | 'Delete') {
  const menu = await openMenu(title);
  fireEvent.click(within(menu).getByRole('menuitem', { name: action }));
}

it('groups the sessions by the day they were last updated, newest first', async () => {
  await renderSidebar();
  // Each day's heading opens the first of its sessions.
  const rows = screen.getAllByRole('listitem').map((row) => row.textContent);
  expect(rows).toEqual([
    'TodayTrip plans',
    'YesterdayTax return',
    'Previous 7 daysBirthday gift ideas for my sister who likes climbing',
    'OlderOld notes',
  ]);
  expect(
    screen.getAllByRole('heading', { level: 2 }).map((heading) => heading.textContent),
  ).toEqual(['Today', 'Yesterday', 'Previous 7 days', 'Older']);
});

it('shows each title in full on hover, marks the open session, and has two tab stops a row', async () => {
  navigation.pathname = '/c/s2';
  await renderSidebar();
  const long = 'Birthday gift ideas for my sister who likes climbing';
  expect(screen.getByRole('link', { name: long })).toHaveAttribute('title', long);
  expect(screen.getByRole('link', { name: 'Tax return' })).toHaveAttribute('aria-current', 'page');
  expect(screen.getByRole('link', { name: 'Trip plans' })).not.toHaveAttribute('aria-current');
  // Two tab stops a row: its link and its menu's button.
  for (const row of screen.getAllByRole('listitem')) {
    expect(within(row).getAllByRole('link')).toHaveLength(1);
    expect(within(row).getAllByRole('button')).toHaveLength(1);
  }
});

it('filters by title as you type, and says when nothing matches', async () => {
  await renderSidebar();
  fireEvent.change(search(), { target: { value: '  TRIP ' } });
  expect(screen.getAllByRole('link').map((link) => link.textContent)).toEqual([
    'New chat',
    'Trip plans',
  ]);
  fireEvent.change(search(), { target: { value: 'holiday' } });
  expect(screen.getByText('No chats match “holiday”.')).toBeInTheDocument();
  expect(screen.queryByRole('link', { name: 'Trip plans' })).not.toBeInTheDocument();
  fireEvent.change(search(), { target: { value: '' } });
  expect(screen.getByRole('link', { name: 'Old notes' })).toBeInTheDocument();
});

it('opens a row’s menu from the keyboard, with Rename, Share and Delete', async () => {
  await renderSidebar();
  const menu = await openMenu('Tax return');
  expect(menuButton('Tax return')).toHaveAttribute('aria-expanded', 'true');
  expect(
    within(menu)
      .getAllByRole('menuitem')
      .map((item) => item.textContent),
  ).toEqual(['Rename', 'Share', 'Delete']);
  await waitFor(() => expect(within(menu).getByRole('menuitem', { name: 'Rename' })).toHaveFocus());
});

it('mounts a row’s menu only once the row is reached for', async () => {
  menusMounted.count = 0;
  await renderSidebar();
  expect(menusMounted.count).toBe(0);
  expect(menuButton('Tax return')).toHaveAttribute('aria-haspopup', 'menu');
  // A pointer over a row's link mounts that row's menu alone, once.
  fireEvent.pointerEnter(screen.getByRole('link', { name: 'Tax return' }));
  fireEvent.pointerEnter(screen.getByRole('link', { name: 'Tax return' }));
  await waitFor(() => expect(menusMounted.count).toBe(1));
  expect(menuButton('Tax return')).toHaveAttribute('aria-expanded', 'false');
});

it('opens a row’s menu with the press that reaches for it, as a tap does', async () => {
  await renderSidebar();
  fireEvent.pointerDown(menuButton('Old notes'), { button: 0 });
  const menu = await screen.findByRole('menu');
  expect(within(menu).getAllByRole('menuitem')).toHaveLength(3);
  expect(menuButton('Old notes')).toHaveAttribute('aria-expanded', 'true');
  // Pressed again, it closes, as the trigger's press does.
  fireEvent.pointerDown(menuButton('Old notes'), { button: 0 });
  await waitFor(() => expect(screen.queryByRole('menu')).not.toBeInTheDocument());
});

it('opens a row’s menu with a click that comes alone, as an assistive technology’s does', async () => {
  await renderSidebar();
  fireEvent.click(menuButton('Old notes'));
  const menu = await screen.findByRole('menu');
  expect(within(menu).getAllByRole('menuitem')).toHaveLength(3);
});

it('New chat goes home and stores nothing', async () => {
  await renderSidebar();
  const newChat = screen.getByRole('link', { name: 'New chat' });
  expect(newChat).toHaveAttribute('href', '/');
  fireEvent.click(newChat);
  expect(calls.filter(({ method }) => method !== 'GET')).toEqual([]);
});

it('renames from the menu, then gives focus back to the row’s menu button', async () => {
  await renderSidebar();
  await pick('Old notes', 'Rename');
  const dialog = screen.getByRole('dialog', { name: 'Rename session' });
  const title = within(dialog).getByRole('textbox', { name: 'Title' });
  await waitFor(() => expect(title).toHaveFocus());
  fireEvent.change(title, { target: { value: 'Holiday' } });
  fireEvent.submit(title);

  await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  expect(calls).toContainEqual({
    method: 'PATCH',
    path: '/api/sessions/s4',
    body: { title: 'Holiday' },
  });
  // Now the latest, it moved from Older to Today, its menu's button still focused.
  await waitFor(() => expect(screen.getAllByRole('listitem')[0]).toHaveTextContent('TodayHoliday'));
  await waitFor(() => expect(menuButton('Holiday')).toHaveFocus());
  // Not the open session: its page needs no new render.
  expect(navigation.refresh).not.toHaveBeenCalled();
});

it.each(['Rename', 'Share', 'Delete'] as const)(
  'gives focus back to the row’s menu button when its %s dialog is dismissed',
  async (action) => {
    await renderSidebar();
    await pick('Tax return', action);
    const dialog = screen.getByRole('dialog');
    await waitFor(() => expect(dialog).toContainElement(document.activeElement as HTMLElement));
    fireEvent.keyDown(dialog, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await waitFor(() => expect(menuButton('Tax return')).toHaveFocus());
  },
);

it('deletes after asking, and leaves the page if it was the open session', async () => {
  navigation.pathname = '/c/s2';
  await renderSidebar();
  await pick('Tax return', 'Delete');
  const dialog = screen.getByRole('dialog', { name: 'Delete session?' });
  expect(dialog).toHaveAccessibleDescription(/“Tax return” and its messages will be gone/);
  fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));

  await waitFor(() => expect(screen.queryByRole('link', { name: 'Tax return' })).toBeNull());
  expect(calls).toContainEqual({ method: 'DELETE', path: '/api/sessions/s2', body: undefined });
  expect(navigation.push).toHaveBeenCalledWith('/');
});
