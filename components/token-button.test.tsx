// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { TokenButton } from './token-button';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

type Call = { method: string; path: string; body?: unknown };
let calls: Call[];
let tokens: { id: string; name: string; createdAt: string; lastUsedAt: string | null }[];

/** A fake server for the token routes, which records what the dialog asked of it. */
beforeEach(() => {
  calls = [];
  tokens = [{ id: 'tok1', name: 'backup', createdAt: '2026-01-02T03:04:05Z', lastUsedAt: null }];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (path: string, init: RequestInit) => {
      const method = init.method ?? 'GET';
      const body = init.body ? JSON.parse(String(init.body)) : undefined;
      calls.push({ method, path, body });
      if (path === '/api/tokens' && method === 'GET') return Response.json({ tokens });
      if (path === '/api/tokens' && method === 'POST') {
        const token = {
          id: 'tok2',
          name: body.name,
          createdAt: '2026-01-03T00:00:00Z',
          lastUsedAt: null,
        };
        tokens = [token, ...tokens];
        return Response.json({ token, bearer: 'qk_secret' }, { status: 201 });
      }
      if (path.startsWith('/api/tokens/') && method === 'DELETE') {
        tokens = tokens.filter((token) => token.id !== path.split('/').pop());
        return new Response(null, { status: 204 });
      }
      if (path === '/api/identity/rotate') return new Response(null, { status: 204 });
      return Response.json({ error: { code: 'not_found', message: 'No.' } }, { status: 404 });
    }),
  );
});

function open() {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <TokenButton />
    </QueryClientProvider>,
  );
  fireEvent.click(screen.getByRole('button', { name: 'API tokens' }));
  return screen.getByRole('dialog', { name: 'API tokens' });
}

it('lists the owner’s tokens when opened', async () => {
  const dialog = open();
  const list = await within(dialog).findByRole('list', { name: 'Your tokens' });
  expect(within(list).getByText('backup')).toBeInTheDocument();
  expect(within(list).getByText(/last used never/)).toBeInTheDocument();
  expect(calls).toEqual([{ method: 'GET', path: '/api/tokens' }]);
});

it('creates a named token and shows it once, with a copy button', async () => {
  const dialog = open();
  fireEvent.change(within(dialog).getByLabelText('New token’s name'), {
    target: { value: '  ci  ' },
  });
  fireEvent.submit(within(dialog).getByRole('button', { name: 'Create' }));
  expect((await within(dialog).findByRole('status')).textContent).toMatch(
    /^Token “ci” — copy it now, it will not be shown again/,
  );
  expect(within(dialog).getByText('qk_secret').tagName).toBe('CODE');
  expect(within(dialog).getByRole('button', { name: 'Copy token' })).toBeInTheDocument();
  expect(calls).toContainEqual({ method: 'POST', path: '/api/tokens', body: { name: 'ci' } });
  expect(await within(dialog).findByText('ci')).toBeInTheDocument();
});

it('revokes a token', async () => {
  const dialog = open();
  fireEvent.click(await within(dialog).findByRole('button', { name: 'Revoke backup' }));
  expect(await within(dialog).findByText('No tokens yet.')).toBeInTheDocument();
  expect(calls).toContainEqual({ method: 'DELETE', path: '/api/tokens/tok1' });
});

it('rotates this browser’s key and says so', async () => {
  const dialog = open();
  fireEvent.click(within(dialog).getByRole('button', { name: 'Rotate this browser’s key' }));
  expect(await within(dialog).findByText('Done: this browser has a new key.')).toBeInTheDocument();
  expect(calls).toContainEqual({ method: 'POST', path: '/api/identity/rotate' });
});

it('gives focus back to its button when the dialog closes', async () => {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <TokenButton />
    </QueryClientProvider>,
  );
  const button = screen.getByRole('button', { name: 'API tokens' });
  button.focus();
  fireEvent.click(button);
  const dialog = screen.getByRole('dialog', { name: 'API tokens' });
  await waitFor(() => expect(dialog).toContainElement(document.activeElement as HTMLElement));
  fireEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
  await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  await waitFor(() => expect(button).toHaveFocus());
});
