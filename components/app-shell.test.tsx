// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { AppShell } from './app-shell';

vi.mock('next/navigation', () => ({
  usePathname: () => '/',
  useRouter: () => ({ push: () => {}, refresh: () => {} }),
}));

beforeEach(() => {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => Response.json({ sessions: [], nextCursor: null })),
  );
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

// The phone's layout: in this test's DOM the wide screen's sidebar is there too, but only the
// sheet is a dialog.
function openSheet() {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <AppShell>
        <textarea aria-label="Message" />
      </AppShell>
    </QueryClientProvider>,
  );
  const toggle = screen.getByRole('button', { name: 'Open sessions' });
  toggle.focus();
  fireEvent.click(toggle);
  return { toggle, sheet: screen.getByRole('dialog', { name: 'Sessions' }) };
}

it('closes the sessions sheet on Escape, with focus back on its menu button', async () => {
  const { toggle, sheet } = openSheet();
  await waitFor(() => expect(sheet).toContainElement(document.activeElement as HTMLElement));
  fireEvent.keyDown(sheet, { key: 'Escape' });
  await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  await waitFor(() => expect(toggle).toHaveFocus());
});

it('closes the sheet on New chat and puts focus in the composer', async () => {
  const { sheet } = openSheet();
  fireEvent.click(within(sheet).getByRole('link', { name: 'New chat' }));
  await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  await waitFor(() => expect(screen.getByRole('textbox', { name: 'Message' })).toHaveFocus());
});
