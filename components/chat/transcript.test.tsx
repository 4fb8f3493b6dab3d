// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import type { ComponentProps } from 'react';
import { afterEach, expect, it, vi } from 'vitest';
import type { QuantaMessage } from '@/lib/protocol';
import { Transcript } from './transcript';

vi.mock('virtua', () => import('@/tests/helpers/every-row-virtualizer'));

afterEach(cleanup);

const user = (id: string, text: string): QuantaMessage => ({
  id,
  role: 'user',
  parts: [{ type: 'text', text }],
});
const assistant = (id: string, text: string): QuantaMessage => ({
  id,
  role: 'assistant',
  parts: [{ type: 'text', text, state: 'done' }],
  metadata: { status: 'complete', usage: { inputTokens: 10, outputTokens: 2 } },
});

const twoTurns = [
  user('u1', 'what is 2 + 2'),
  assistant('a1', 'It is 4.'),
  user('u2', 'what is 3 + 3'),
  assistant('a2', 'It is 6.'),
];

function show(props: Partial<ComponentProps<typeof Transcript>> = {}) {
  const handlers = {
    onOpenWidget: vi.fn(),
    onEdit: vi.fn(),
    onRegenerate: vi.fn(),
    onRetry: vi.fn(),
  };
  render(
    <Transcript
      messages={twoTurns}
      hasEarlier={false}
      earlier="idle"
      onLoadEarlier={vi.fn()}
      status="ready"
      error={undefined}
      readOnly={false}
      canAct
      stopRequested={false}
      showUsage
      {...handlers}
      {...props}
    />,
  );
  return handlers;
}

const row = (text: string) => screen.getByText(text).closest('li') as HTMLElement;

it('says plainly when a session has no messages', () => {
  show({ messages: [], readOnly: true });
  expect(screen.getByText('No messages yet.')).toBeInTheDocument();
  expect(screen.queryByRole('list', { name: 'Transcript' })).not.toBeInTheDocument();
});

it('asks before an edit drops later turns, and edits the last prompt at once', () => {
  const { onEdit } = show();
  fireEvent.click(within(row('what is 2 + 2')).getByRole('button', { name: 'Edit' }));
  fireEvent.keyDown(screen.getByRole('textbox', { name: 'Edit message' }), { key: 'Enter' });
  expect(screen.getByRole('dialog', { name: 'Edit this message?' })).toHaveTextContent(
    'Editing this message removes the 3 messages after it.',
  );
  expect(onEdit).not.toHaveBeenCalled();
  cleanup();

  const last = show();
  fireEvent.click(within(row('what is 3 + 3')).getByRole('button', { name: 'Edit' }));
  fireEvent.keyDown(screen.getByRole('textbox', { name: 'Edit message' }), { key: 'Enter' });
  expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  expect(last.onEdit).toHaveBeenCalledWith('u2', 'what is 3 + 3');
});

it('offers Regenerate on the last answer only, and no action that starts a turn while one runs', () => {
  const { onRegenerate } = show();
  expect(within(row('It is 4.')).queryByRole('button', { name: 'Regenerate' })).toBeNull();
  fireEvent.click(within(row('It is 6.')).getByRole('button', { name: 'Regenerate' }));
  expect(onRegenerate).toHaveBeenCalledOnce();
  cleanup();

  show({ canAct: false });
  expect(screen.queryByRole('button', { name: 'Regenerate' })).not.toBeInTheDocument();
  expect(screen.queryByRole('button', { name: 'Edit' })).not.toBeInTheDocument();
  // Copying is no turn: it stays.
  expect(screen.getAllByRole('button', { name: 'Copy' })).toHaveLength(2);
});

it('shows usage to the owner only', () => {
  show();
  expect(screen.getAllByRole('button', { name: /^Usage: 10 tokens in/ })).toHaveLength(2);
  cleanup();
  show({ showUsage: false, readOnly: true, canAct: false });
  expect(screen.queryByRole('button', { name: /^Usage/ })).not.toBeInTheDocument();
});

it('says the model is thinking, or that Stop came before any answer', () => {
  const asked = [...twoTurns, user('u3', 'and 4 + 4?')];
  show({ messages: asked, status: 'submitted', canAct: false });
  expect(screen.getByText('Thinking…')).toBeInTheDocument();
  cleanup();
  show({ messages: asked, status: 'submitted', canAct: false, stopRequested: true });
  expect(screen.queryByText('Thinking…')).not.toBeInTheDocument();
  expect(screen.getByText('Stopped before answering')).toBeInTheDocument();
});

it('shows a refused request as an alert whose Retry sends it again', () => {
  const { onRetry } = show({
    messages: [...twoTurns, user('u3', 'and 4 + 4?')],
    status: 'error',
    error: new Error('A turn is already running here: wait or stop it.'),
  });
  const alert = screen.getByRole('alert');
  expect(alert).toHaveTextContent('A turn is already running here: wait or stop it.');
  fireEvent.click(within(alert).getByRole('button', { name: 'Retry' }));
  expect(onRetry).toHaveBeenCalledOnce();
});

it('loads earlier messages as the reader scrolls near the top, or asks for them', () => {
  const onLoadEarlier = vi.fn();
  show({ hasEarlier: true, onLoadEarlier });
  const scroller = screen.getByRole('list', { name: 'Transcript' }).closest('.overflow-y-auto');
  fireEvent.scroll(scroller as Element, { target: { scrollTop: 5000 } });
  expect(onLoadEarlier).not.toHaveBeenCalled();
  fireEvent.scroll(scroller as Element, { target: { scrollTop: 100 } });
  expect(onLoadEarlier).toHaveBeenCalledOnce();
  fireEvent.click(screen.getByRole('button', { name: 'Load earlier messages' }));
  expect(onLoadEarlier).toHaveBeenCalledTimes(2);
  cleanup();

  // After a failure, scrolling near the top does not ask again; the button does.
  const retry = vi.fn();
  show({ hasEarlier: true, earlier: 'failed', onLoadEarlier: retry });
  const again = screen.getByRole('list', { name: 'Transcript' }).closest('.overflow-y-auto');
  fireEvent.scroll(again as Element, { target: { scrollTop: 100 } });
  fireEvent.scroll(again as Element, { target: { scrollTop: 50 } });
  expect(retry).not.toHaveBeenCalled();
  fireEvent.click(screen.getByRole('button', { name: 'Load earlier messages' }));
  expect(retry).toHaveBeenCalledOnce();
  cleanup();

  show({ hasEarlier: true, earlier: 'loading' });
  expect(screen.getByRole('button', { name: 'Loading earlier messages…' })).toHaveAttribute(
    'aria-busy',
    'true',
  );
  cleanup();

  // The first message is the session's first: nothing to load, whatever the scroll.
  show({ hasEarlier: false, onLoadEarlier });
  expect(screen.queryByRole('button', { name: /earlier messages/ })).not.toBeInTheDocument();
  fireEvent.scroll(
    screen.getByRole('list', { name: 'Transcript' }).closest('.overflow-y-auto') as Element,
    { target: { scrollTop: 0 } },
  );
  expect(onLoadEarlier).toHaveBeenCalledTimes(2);
});
