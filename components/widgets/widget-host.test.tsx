// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import type { QuantaMessage, WidgetState } from '@/lib/protocol';
import { setOpenWidget } from './open-widget';
import { WidgetHost } from './widget-host';

vi.mock('next/navigation', () => ({
  useSearchParams: () => new URLSearchParams('widget=call_1'),
}));

// The page's URL names the open widget, as a `?widget=` link does.
beforeEach(() => {
  window.history.replaceState(null, '', '/c/session?widget=call_1');
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const messages: QuantaMessage[] = [
  {
    id: 'a1',
    role: 'assistant',
    parts: [
      {
        type: 'tool-show_counter',
        toolCallId: 'call_1',
        state: 'output-available',
        input: {},
        output: {
          isError: false,
          modelText: 'shown',
          ui: { kind: 'widget', label: 'Open counter', widget: 'counter', data: { count: 3 } },
          durationMs: 1,
        },
      },
    ],
  },
];

/** The host of an owner's session with no widget state yet, over `shown` messages. */
function showHost(shown: QuantaMessage[] = messages) {
  render(
    <WidgetHost
      sessionId="s1"
      messages={shown}
      states={{}}
      onState={() => {}}
      onSendMessage={() => {}}
      readOnly={false}
    />,
  );
}

it('after a stale version, drops the clicks queued behind it and shows the latest data', async () => {
  const fetch = vi.fn(async (_url: string, _init: RequestInit) =>
    Response.json(
      {
        error: {
          code: 'stale_version',
          message: 'The widget changed since you saw it: it now shows the latest; try again.',
          current: { data: { count: 9 }, version: 3 },
        },
      },
      { status: 409 },
    ),
  );
  vi.stubGlobal('fetch', fetch);
  const states: Record<string, WidgetState> = {};
  render(
    <WidgetHost
      sessionId="s1"
      messages={messages}
      states={states}
      onState={(key, state) => {
        states[key] = state;
      }}
      onSendMessage={() => {}}
      readOnly={false}
    />,
  );
  const increment = await screen.findByRole('button', { name: 'Increment' });
  fireEvent.click(increment);
  fireEvent.click(increment);
  await waitFor(() => expect(screen.getByRole('alert').textContent).toContain('changed since'));
  expect(fetch).toHaveBeenCalledTimes(1);
  expect(JSON.parse(String(fetch.mock.calls[0]?.[1]?.body))).toEqual({
    action: 'increment',
    args: {},
    version: 0,
  });
  expect(states.call_1).toEqual({ data: { count: 9 }, version: 3 });
});

it('opens and closes from React state, mirrored into the URL, and follows Back', async () => {
  window.history.replaceState(null, '', '/c/session');
  showHost();
  expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  act(() => setOpenWidget('call_1'));
  expect(await screen.findByRole('dialog', { name: 'Counter' })).toBeInTheDocument();
  expect(window.location.search).toBe('?widget=call_1');
  act(() => setOpenWidget(null));
  await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  expect(window.location.search).toBe('');
  // Back to a URL that names the widget: it opens again.
  act(() => {
    window.history.replaceState(null, '', '/c/session?widget=call_1');
    window.dispatchEvent(new PopStateEvent('popstate'));
  });
  expect(await screen.findByRole('dialog', { name: 'Counter' })).toBeInTheDocument();
});

it('titles its container with the widget’s own title, not the label of its button', async () => {
  const unknown: QuantaMessage = {
    id: 'a2',
    role: 'assistant',
    parts: [
      {
        type: 'tool-show_counter',
        toolCallId: 'call_2',
        state: 'output-available',
        input: {},
        output: {
          isError: false,
          modelText: 'shown',
          ui: { kind: 'widget', label: 'Open mystery', widget: 'mystery' },
          durationMs: 1,
        },
      },
    ],
  };
  showHost([...messages, unknown]);
  const dialog = await screen.findByRole('dialog', { name: 'Counter' });
  expect(dialog).toHaveAttribute('data-container', 'modal');
  expect(screen.queryByRole('dialog', { name: 'Open counter' })).not.toBeInTheDocument();

  act(() => setOpenWidget('call_2'));
  const fallback = await screen.findByRole('dialog', { name: 'Unknown widget' });
  expect(fallback).toHaveTextContent('no view for the widget “mystery”');
});

it('keeps focus on the counter’s button while its action runs, and ignores a second press', async () => {
  let answer: (response: Response) => void = () => {};
  const fetch = vi.fn(
    (_url: string, _init: RequestInit) =>
      new Promise<Response>((resolve) => {
        answer = resolve;
      }),
  );
  vi.stubGlobal('fetch', fetch);
  showHost();
  const increment = await screen.findByRole('button', { name: 'Increment' });
  increment.focus();
  fireEvent.click(increment);
  await waitFor(() => expect(increment).toHaveAttribute('aria-disabled', 'true'));
  expect(document.activeElement).toBe(increment);
  expect(increment).not.toBeDisabled();

  fireEvent.click(increment);
  expect(fetch).toHaveBeenCalledTimes(1);

  await act(async () => answer(Response.json({ data: { count: 4 }, version: 1 })));
  await waitFor(() => expect(increment).not.toHaveAttribute('aria-disabled'));
  expect(document.activeElement).toBe(increment);
  expect(fetch).toHaveBeenCalledTimes(1);
});
