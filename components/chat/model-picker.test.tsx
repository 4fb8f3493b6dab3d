// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, expect, it, vi } from 'vitest';
import type { ModelInfo, ModelList, SessionView } from '@/lib/protocol';
import { sessionView } from '../../tests/helpers/session-view';
import { sessionsKey } from '../api';
import { ModelPicker } from './model-picker';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const models: ModelList = {
  models: [
    { id: 'anthropic:claude-sonnet-4-5', label: 'claude-sonnet-4-5 · Anthropic', demo: false },
    { id: 'demo:offline', label: 'Demo (offline)', demo: true },
  ],
  defaultId: 'demo:offline',
};

const session = sessionView({ visibility: 'public' });

function show(view: Partial<SessionView> = {}, offered: ModelList = models) {
  const fetch = vi.fn(async (_url: string, init?: RequestInit) =>
    init?.method === 'PATCH'
      ? Response.json({ session: { ...session, ...JSON.parse(String(init.body)) } })
      : Response.json(offered),
  );
  vi.stubGlobal('fetch', fetch);
  const queryClient = new QueryClient();
  const invalidate = vi.spyOn(queryClient, 'invalidateQueries');
  render(
    <QueryClientProvider client={queryClient}>
      <ModelPicker session={{ ...session, ...view }} />
    </QueryClientProvider>,
  );
  return { fetch, invalidate };
}

it('names the demo model once for its owner, with a badge that explains it', async () => {
  show();
  const picker = await screen.findByRole('combobox', { name: 'Model' });
  expect(picker).toHaveValue('demo:offline');
  expect(screen.getAllByText('Demo (offline)')).toHaveLength(1);
  fireEvent.click(screen.getByRole('button', { name: 'About the demo model' }));
  expect(screen.getByRole('dialog', { name: 'The offline demo model' })).toHaveTextContent(
    'OPENAI_API_KEY',
  );
});

it('saves the owner’s choice and refreshes the sessions list, without reloading the page', async () => {
  const { fetch, invalidate } = show();
  fireEvent.change(await screen.findByRole('combobox', { name: 'Model' }), {
    target: { value: 'anthropic:claude-sonnet-4-5' },
  });
  await waitFor(() => expect(invalidate).toHaveBeenCalledWith({ queryKey: sessionsKey }));
  expect(fetch).toHaveBeenCalledWith(
    '/api/sessions/s1',
    expect.objectContaining({ method: 'PATCH', body: '{"model":"anthropic:claude-sonnet-4-5"}' }),
  );
  expect(screen.getByRole('combobox', { name: 'Model' })).toHaveValue(
    'anthropic:claude-sonnet-4-5',
  );
  expect(screen.queryByRole('button', { name: 'About the demo model' })).not.toBeInTheDocument();
});

it('shows a reader the model by its whole name, or the demo’s badge', async () => {
  show({ isOwner: false, model: 'anthropic:claude-sonnet-4-5' });
  expect(await screen.findByText('claude-sonnet-4-5 · Anthropic')).toBeInTheDocument();
  expect(screen.queryByRole('combobox')).not.toBeInTheDocument();
  cleanup();
  show({ isOwner: false });
  expect(await screen.findByRole('button', { name: 'Demo (offline)' })).toBeInTheDocument();
  expect(screen.getAllByText('Demo (offline)')).toHaveLength(1);
});

it('offers no choice of one model: the demo’s badge names it', async () => {
  show({}, { models: [models.models[1] as ModelInfo], defaultId: 'demo:offline' });
  fireEvent.click(await screen.findByRole('button', { name: 'Demo (offline)' }));
  expect(screen.getByRole('dialog', { name: 'The offline demo model' })).toBeInTheDocument();
  expect(screen.queryByRole('combobox')).not.toBeInTheDocument();
});
