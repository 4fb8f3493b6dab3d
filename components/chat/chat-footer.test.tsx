// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import type { ComponentProps } from 'react';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { sessionView } from '../../tests/helpers/session-view';
import { ChatFooter } from './chat-footer';

beforeEach(() =>
  vi.stubGlobal(
    'fetch',
    vi.fn(async () =>
      Response.json({
        models: [{ id: 'demo:offline', label: 'Demo (offline)', demo: true }],
        defaultId: 'demo:offline',
      }),
    ),
  ),
);
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const session = sessionView();

function show(props: Partial<ComponentProps<typeof ChatFooter>> = {}) {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <ChatFooter
        session={session}
        onSend={() => undefined}
        running={false}
        onStop={() => {}}
        autoFocus={false}
        {...props}
      />
    </QueryClientProvider>,
  );
}

const field = () => screen.getByRole('textbox', { name: 'Message' });

it('holds the composer, with the model picker inside it', async () => {
  show();
  const picker = await screen.findByRole('button', { name: 'Demo (offline)' });
  expect(field().closest('form')).toContainElement(picker);
});

it('says a turn sent elsewhere runs, and holds the composer meanwhile', () => {
  const note = 'A turn is running: wait for its answer, or stop it.';
  show({ turnNote: note, disabledReason: note, running: true });
  expect(screen.getByRole('status')).toHaveTextContent(note);
  expect(field()).toBeDisabled();
  // Said once, above the box: the field does not repeat it.
  expect(field()).toHaveAttribute('placeholder', 'Message Quanta…');
  expect(field()).toHaveAccessibleDescription(note);
  expect(screen.getByRole('button', { name: 'Stop' })).toBeInTheDocument();
});

it('says in the field why a reader cannot write', () => {
  show({ disabledReason: 'This session is read-only.' });
  expect(field()).toHaveAttribute('placeholder', 'This session is read-only.');
});

it('gives a reader no Stop while a turn runs', () => {
  show({ disabledReason: 'This session is read-only.', running: true, onStop: undefined });
  expect(screen.queryByRole('button', { name: 'Stop' })).not.toBeInTheDocument();
  expect(screen.getByRole('button', { name: 'Send' })).toBeDisabled();
});

it('gives the session’s usage quietly, behind an info button, when given', async () => {
  show({ usage: { inputTokens: 1204, outputTokens: 31, cost: 0.0042 } });
  expect(
    await screen.findByRole('button', { name: 'Session: 1,204 tokens in · 31 out · $0.0042' }),
  ).toBeInTheDocument();
  expect(screen.queryByText(/tokens in/)).not.toBeInTheDocument();
  cleanup();
  show();
  expect(screen.queryByRole('button', { name: /^Session/ })).not.toBeInTheDocument();
});
