// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import type { SessionView } from '@/lib/protocol';
import { ShareButton } from './share-dialog';

vi.mock('next/navigation', () => ({ useRouter: () => ({ refresh: () => {} }) }));

const session: SessionView = {
  id: 'abc123',
  title: 'Plans',
  model: null,
  visibility: 'private',
  createdAt: '2026-01-02T03:04:05Z',
  updatedAt: '2026-01-02T03:04:05Z',
  turnActive: false,
  isOwner: true,
};

/** Gives the server's answer to the dialog's PATCH, once the dialog has sent it. */
let answer: ((response: Response) => void) | undefined;

async function respond(response: Response) {
  await waitFor(() => expect(answer).toBeDefined());
  answer?.(response);
}

beforeEach(() => {
  answer = undefined;
  vi.stubGlobal(
    'fetch',
    vi.fn((_path: string, init: RequestInit = {}) => {
      if (init.method !== 'PATCH') return Promise.resolve(Response.json({ sessions: [] }));
      return new Promise<Response>((resolve) => {
        answer = resolve;
      });
    }),
  );
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function open() {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <ShareButton session={session} />
    </QueryClientProvider>,
  );
  fireEvent.click(screen.getByRole('button', { name: 'Share' }));
  const dialog = screen.getByRole('dialog', { name: 'Share session' });
  fireEvent.click(within(dialog).getByRole('checkbox', { name: 'Public link' }));
  return dialog;
}

it('offers the link only once the server has made it public', async () => {
  const dialog = open();
  expect(within(dialog).getByRole('checkbox', { name: 'Public link' })).toBeChecked();
  expect(within(dialog).queryByRole('textbox', { name: 'Share link' })).toBeNull();
  expect(within(dialog).queryByRole('button', { name: 'Copy link' })).toBeNull();
  expect(within(dialog).getByRole('status')).toHaveTextContent('Making the link public…');

  await respond(Response.json({ session: { ...session, visibility: 'public' } }));
  const link = await within(dialog).findByRole('textbox', { name: 'Share link' });
  expect(link).toHaveValue(`${window.location.origin}/c/abc123`);
  expect(within(dialog).getByRole('status')).toHaveTextContent('Anyone with the link can read it.');
});

it('never offers a link the server refused to make public', async () => {
  const dialog = open();
  await respond(
    Response.json({ error: { code: 'server_error', message: 'It failed.' } }, { status: 500 }),
  );
  expect(await within(dialog).findByText('It failed.')).toBeInTheDocument();
  expect(within(dialog).getByRole('checkbox', { name: 'Public link' })).not.toBeChecked();
  expect(within(dialog).queryByRole('textbox', { name: 'Share link' })).toBeNull();
});

it('shows what the server answers, not what was asked', async () => {
  const dialog = open();
  await respond(Response.json({ session }));
  await waitFor(() =>
    expect(within(dialog).getByRole('checkbox', { name: 'Public link' })).not.toBeChecked(),
  );
  expect(within(dialog).getByRole('status')).toHaveTextContent('Only you can see this session.');
  expect(within(dialog).queryByRole('textbox', { name: 'Share link' })).toBeNull();
});
