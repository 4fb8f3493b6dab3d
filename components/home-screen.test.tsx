// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import type { ModelInfo } from '@/lib/protocol';
import { takePrompt } from './chat/pending-prompt';
import { HomeScreen } from './home-screen';
import { SUGGESTIONS, Suggestions } from './suggestions';

const navigation = vi.hoisted(() => ({ push: vi.fn() }));
vi.mock('next/navigation', () => ({
  usePathname: () => '/',
  useRouter: () => ({ push: navigation.push, refresh: () => {} }),
}));

const DEMO: ModelInfo = { id: 'demo:offline', label: 'Demo (offline)', demo: true };
const GPT: ModelInfo = { id: 'openai:gpt-5', label: 'gpt-5 · OpenAI', demo: false };

type Call = { method: string; path: string; body?: unknown };
let calls: Call[];
let models: ModelInfo[];

beforeEach(() => {
  calls = [];
  models = [DEMO];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (path: string, init: RequestInit) => {
      const method = init.method ?? 'GET';
      calls.push({ method, path, body: init.body ? JSON.parse(String(init.body)) : undefined });
      if (path === '/api/models') return Response.json({ models, defaultId: models[0]?.id });
      if (path.startsWith('/api/sessions?'))
        return Response.json({ sessions: [], nextCursor: null });
      if (path === '/api/sessions' && method === 'POST') {
        return Response.json({ session: { id: 'new1' } }, { status: 201 });
      }
      return Response.json({ error: { code: 'not_found', message: 'No.' } }, { status: 404 });
    }),
  );
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  navigation.push.mockReset();
});

function renderHome() {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <HomeScreen />
    </QueryClientProvider>,
  );
}

const posts = () => calls.filter(({ method }) => method === 'POST');

it('sends a suggestion as it is when its chip is clicked', () => {
  const onSend = vi.fn();
  render(<Suggestions onSend={onSend} pending={false} />);
  const chips = within(screen.getByRole('list', { name: 'Suggestions' })).getAllByRole('button');
  expect(chips.map((chip) => chip.textContent)).toEqual(SUGGESTIONS.map(({ prompt }) => prompt));
  for (const chip of chips) fireEvent.click(chip);
  expect(onSend.mock.calls).toEqual(SUGGESTIONS.map(({ prompt }) => [prompt]));
});

it('keeps the chips focusable but inert while a message is on its way', () => {
  const onSend = vi.fn();
  render(<Suggestions onSend={onSend} pending />);
  const chip = screen.getByRole('button', { name: 'Show me a counter starting at 3' });
  expect(chip).not.toBeDisabled();
  expect(chip).toHaveAttribute('aria-disabled', 'true');
  fireEvent.click(chip);
  expect(onSend).not.toHaveBeenCalled();
});

it('greets, puts focus in the composer, and stores nothing before the first message', async () => {
  renderHome();
  expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('What can I help with?');
  await waitFor(() => expect(screen.getByRole('textbox', { name: 'Message' })).toHaveFocus());
  // The demo, alone, is no choice: its badge says what it is.
  expect(await screen.findByRole('button', { name: 'Demo (offline)' })).toBeInTheDocument();
  expect(screen.queryByRole('combobox', { name: 'Model' })).not.toBeInTheDocument();
  expect(posts()).toEqual([]);
});

it('starts the session with a chip’s prompt and goes to it', async () => {
  renderHome();
  fireEvent.click(screen.getByRole('button', { name: 'Plot the squares of 1 to 10' }));
  await waitFor(() => expect(navigation.push).toHaveBeenCalledWith('/c/new1'));
  expect(posts()).toEqual([{ method: 'POST', path: '/api/sessions', body: {} }]);
  expect(takePrompt('new1')).toBe('Plot the squares of 1 to 10');
});

it('creates the session with the model picked before the first message', async () => {
  models = [GPT, DEMO];
  renderHome();
  const picker = await screen.findByRole('combobox', { name: 'Model' });
  expect(picker).toHaveValue('openai:gpt-5');
  fireEvent.change(picker, { target: { value: 'demo:offline' } });
  expect(screen.getByRole('button', { name: 'About the demo model' })).toBeInTheDocument();

  const message = screen.getByRole('textbox', { name: 'Message' });
  fireEvent.change(message, { target: { value: 'hello' } });
  fireEvent.keyDown(message, { key: 'Enter' });
  await waitFor(() => expect(navigation.push).toHaveBeenCalledWith('/c/new1'));
  expect(posts()).toEqual([
    { method: 'POST', path: '/api/sessions', body: { model: 'demo:offline' } },
  ]);
  expect(takePrompt('new1')).toBe('hello');
});
