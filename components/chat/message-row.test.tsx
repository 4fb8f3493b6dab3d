// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { ComponentProps } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { QuantaMessage, ToolOutput } from '@/lib/protocol';
import { MessageRow } from './message-row';

// An answer with a code block starts the highlighter, whose worker happy-dom cannot run.
vi.mock('./worker-highlighter', () => import('@/tests/helpers/plain-highlighter'));

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function answer(output: ToolOutput, text = 'Here you go.'): QuantaMessage {
  return {
    id: 'a1',
    role: 'assistant',
    parts: [
      {
        type: 'tool-demo',
        toolCallId: 'call_1',
        state: 'output-available',
        input: { what: 'thing' },
        output,
      },
      { type: 'text', text, state: 'done' },
    ],
  };
}

type RowProps = Omit<ComponentProps<typeof MessageRow>, 'message' | 'onOpenWidget'>;

function show(message: QuantaMessage, onOpenWidget = vi.fn(), props: RowProps = {}) {
  render(
    <ol>
      <MessageRow message={message} onOpenWidget={onOpenWidget} {...props} />
    </ol>,
  );
  return onOpenWidget;
}

const card = (name: string) => screen.getByRole('group', { name: `${name} tool call` });

describe('a tool call in the transcript', () => {
  it('shows a text note for the reader after its tool card, apart from the answer', () => {
    show(
      answer({
        isError: false,
        modelText: 'saved',
        ui: { kind: 'text', text: 'Saved to notes' },
        durationMs: 3,
      }),
    );
    const note = screen.getByRole('complementary', { name: 'Note' });
    expect(note).toHaveTextContent('Saved to notes');
    // The note follows the card and is not part of the answer's text.
    expect(card('demo').parentElement?.contains(note)).toBe(true);
    expect(screen.getByText('Here you go.').contains(note)).toBe(false);
  });

  it('shows a widget button labelled by the tool, opening that tool call’s widget', () => {
    const onOpen = show(
      answer({
        isError: false,
        modelText: 'shown',
        ui: { kind: 'widget', label: 'Open counter', widget: 'counter', data: { count: 2 } },
        durationMs: 3,
      }),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Open counter' }));
    expect(onOpen).toHaveBeenCalledWith('call_1');
  });

  it('shows a failed call as an error with its message, and no ui', () => {
    show(answer({ isError: true, modelText: 'count: must be integer', durationMs: 1 }));
    const failed = card('demo');
    expect(failed).toHaveAttribute('data-state', 'error');
    expect(failed).toHaveTextContent('Error');
    expect(failed).toHaveTextContent('1 ms');
    fireEvent.click(within(failed).getByRole('button'));
    expect(within(failed).getByText('count: must be integer')).toBeInTheDocument();
    // No note, and no button but the card's own and the answer's actions.
    expect(screen.queryByRole('complementary')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Open/ })).not.toBeInTheDocument();
  });

  it('shows a running call with its argument preview and no result yet', () => {
    show({
      id: 'a2',
      role: 'assistant',
      parts: [
        { type: 'tool-demo', toolCallId: 'c', state: 'input-available', input: { what: 'thing' } },
      ],
    });
    const running = card('demo');
    expect(running).toHaveAttribute('data-state', 'running');
    expect(running).toHaveTextContent('Running…');
    expect(screen.getByText('thing')).toBeInTheDocument();
    fireEvent.click(within(running).getByRole('button'));
    expect(within(running).getByRole('figure', { name: 'Arguments' })).toBeInTheDocument();
    expect(screen.queryByRole('figure', { name: 'Sent to the model' })).not.toBeInTheDocument();
  });
});

describe('how an answer ended', () => {
  it('marks a failed turn with its cause, the details folded, and Retry', () => {
    const retry = vi.fn();
    show(
      {
        id: 'a3',
        role: 'assistant',
        parts: [{ type: 'text', text: 'Once upon', state: 'done' }],
        metadata: {
          status: 'failed',
          error: 'The model provider failed (HTTP 500). Upstream gone',
        },
      },
      vi.fn(),
      { onRegenerate: retry },
    );
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('The model provider failed (HTTP 500).');
    const details = within(alert).getByText('Details').closest('details') as HTMLDetailsElement;
    expect(details.open).toBe(false);
    expect(details).toHaveTextContent('Upstream gone');
    fireEvent.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(retry).toHaveBeenCalledOnce();
    // Retry is the way to write it again: no second Regenerate beside it.
    expect(screen.queryByRole('button', { name: 'Regenerate' })).not.toBeInTheDocument();
  });

  it('says a stopped answer stopped, and one stopped before any text, before answering', () => {
    show({
      id: 'a4',
      role: 'assistant',
      parts: [{ type: 'text', text: 'Once upon', state: 'done' }],
      metadata: { status: 'stopped' },
    });
    expect(screen.getByText('Stopped')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    cleanup();
    show({ id: 'a5', role: 'assistant', parts: [], metadata: { status: 'stopped' } });
    expect(screen.getByText('Stopped before answering')).toBeInTheDocument();
  });

  it('says an interrupted answer was cut short by the server, and keeps Regenerate', () => {
    const regenerate = vi.fn();
    show(
      {
        id: 'a8',
        role: 'assistant',
        parts: [{ type: 'text', text: 'Once upon', state: 'done' }],
        metadata: { status: 'interrupted' },
      },
      vi.fn(),
      { onRegenerate: regenerate },
    );
    expect(screen.getByRole('status')).toHaveTextContent(
      'Interrupted: the server stopped before the answer was finished',
    );
    expect(screen.getByText('Once upon')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Regenerate' }));
    expect(regenerate).toHaveBeenCalledOnce();
    cleanup();
    show({ id: 'a9', role: 'assistant', parts: [], metadata: { status: 'interrupted' } });
    expect(screen.getByRole('status')).toHaveTextContent('Interrupted before answering');
  });

  it('says while earlier messages are summarised for the model, and marks where they were', () => {
    const summary = (status: 'summarising' | 'done'): QuantaMessage => ({
      id: 'a10',
      role: 'assistant',
      parts: [{ type: 'data-summary', id: 'summary', data: { status } }],
    });
    show(summary('summarising'), vi.fn(), { streaming: true });
    expect(screen.getByRole('status')).toHaveTextContent(
      'Summarising earlier messages for the model…',
    );
    cleanup();
    show(summary('summarising'));
    expect(screen.queryByRole('status')).toBeNull();
    cleanup();
    show(summary('done'));
    expect(screen.getByRole('note')).toHaveTextContent('Earlier messages summarised for the model');
  });

  it('says Stopped as soon as Stop is pressed, unless the turn had already completed', () => {
    const streaming: QuantaMessage = {
      id: 'a6',
      role: 'assistant',
      parts: [{ type: 'text', text: 'Once', state: 'streaming' }],
      metadata: { status: 'streaming' },
    };
    show(streaming, vi.fn(), { streaming: true, stopRequested: true });
    expect(screen.getByText('Stopped')).toBeInTheDocument();
    cleanup();
    show({ ...streaming, metadata: { status: 'complete' } }, vi.fn(), { stopRequested: true });
    expect(screen.queryByText('Stopped')).not.toBeInTheDocument();
  });

  it('shows text a stop cut short as finished once its turn is over', async () => {
    const cut: QuantaMessage = {
      id: 'a10',
      role: 'assistant',
      parts: [{ type: 'text', text: '```js\nconst answer = 42;\n```', state: 'streaming' }],
      metadata: { status: 'stopped' },
    };
    show(cut, vi.fn());
    expect(await screen.findByRole('button', { name: 'Copy Code' })).toBeEnabled();
  });

  it('shows reasoning collapsed, apart from the answer', () => {
    show({
      id: 'a7',
      role: 'assistant',
      parts: [
        { type: 'reasoning', text: 'The user wants a sum.', state: 'done' },
        { type: 'text', text: 'It is 4.', state: 'done' },
      ],
    });
    const reasoning = screen.getByText('Reasoning').closest('details') as HTMLDetailsElement;
    expect(reasoning.open).toBe(false);
    expect(reasoning.textContent).toContain('The user wants a sum.');
    expect(screen.getByText('It is 4.').closest('details')).not.toBeInTheDocument();
  });
});

describe('the actions under an answer', () => {
  const twoParts: QuantaMessage = {
    id: 'a8',
    role: 'assistant',
    parts: [
      { type: 'text', text: 'Let me count.', state: 'done' },
      { type: 'tool-demo', toolCallId: 'c', state: 'input-available', input: {} },
      { type: 'text', text: '**Four**, in a list:\n\n- 1\n- 2', state: 'done' },
    ],
    metadata: { status: 'complete', usage: { inputTokens: 1204, outputTokens: 31 } },
  };

  it('copies the answer’s markdown, its text parts only, and shows that it did', async () => {
    const writeText = vi.fn(async () => {});
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    show(twoParts);
    fireEvent.click(screen.getByRole('button', { name: 'Copy' }));
    expect(writeText).toHaveBeenCalledWith('Let me count.\n\n**Four**, in a list:\n\n- 1\n- 2');
    expect(await screen.findByRole('button', { name: 'Copied' })).toBeInTheDocument();
  });

  it('offers Regenerate only when given, and nothing while the answer is written', () => {
    const regenerate = vi.fn();
    show(twoParts, vi.fn(), { onRegenerate: regenerate });
    fireEvent.click(screen.getByRole('button', { name: 'Regenerate' }));
    expect(regenerate).toHaveBeenCalledOnce();
    cleanup();
    show(twoParts, vi.fn(), { onRegenerate: regenerate, streaming: true });
    expect(screen.queryByRole('button', { name: 'Copy' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Regenerate' })).not.toBeInTheDocument();
  });

  it('shows the usage to the owner, quietly, and never to a reader', () => {
    show(twoParts, vi.fn(), { showUsage: true });
    expect(
      screen.getByRole('button', { name: 'Usage: 1,204 tokens in · 31 out' }),
    ).toBeInTheDocument();
    // Not written out under the answer, and the model is not named there.
    expect(screen.queryByText(/tokens in/)).not.toBeInTheDocument();
    cleanup();
    show(twoParts, vi.fn(), { showUsage: false });
    expect(screen.queryByRole('button', { name: /^Usage/ })).not.toBeInTheDocument();
    expect(screen.queryByText(/tokens in/)).not.toBeInTheDocument();
  });
});

describe('editing a user message', () => {
  const question: QuantaMessage = {
    id: 'u1',
    role: 'user',
    parts: [{ type: 'text', text: 'what is 2 + 2' }],
  };

  function editTo(text: string) {
    fireEvent.click(screen.getByRole('button', { name: 'Edit' }));
    const editor = screen.getByRole('textbox', { name: 'Edit message' });
    expect(editor).toHaveFocus();
    fireEvent.change(editor, { target: { value: text } });
    fireEvent.keyDown(editor, { key: 'Enter' });
  }

  it('sends the edit at once when no later turn would be dropped', () => {
    const onEdit = vi.fn();
    show(question, vi.fn(), { onEdit, dropsOnEdit: 0 });
    editTo('what is 3 + 3');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(onEdit).toHaveBeenCalledWith('u1', 'what is 3 + 3');
  });

  it('asks first when later turns would be dropped, saying how many messages', async () => {
    const onEdit = vi.fn();
    show(question, vi.fn(), { onEdit, dropsOnEdit: 3 });
    editTo('what is 3 + 3');
    const dialog = screen.getByRole('dialog', { name: 'Edit this message?' });
    expect(dialog).toHaveAccessibleDescription(
      'Editing this message removes the 3 messages after it.',
    );
    expect(onEdit).not.toHaveBeenCalled();

    // Cancel keeps the draft open, and the focus in it.
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const draft = screen.getByRole('textbox', { name: 'Edit message' });
    expect(draft).toHaveValue('what is 3 + 3');
    await waitFor(() => expect(draft).toHaveFocus());

    // Sent, the edit hands the focus on to the composer, where the next message is typed.
    const composer = document.createElement('textarea');
    composer.setAttribute('aria-label', 'Message');
    document.body.append(composer);
    fireEvent.keyDown(draft, { key: 'Enter' });
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Send edit' }));
    expect(onEdit).toHaveBeenCalledWith('u1', 'what is 3 + 3');
    await waitFor(() => expect(composer).toHaveFocus());
    composer.remove();
  });

  it('puts the focus back on Edit when the edit is cancelled', () => {
    show(question, vi.fn(), { onEdit: vi.fn() });
    fireEvent.click(screen.getByRole('button', { name: 'Edit' }));
    fireEvent.keyDown(screen.getByRole('textbox', { name: 'Edit message' }), { key: 'Escape' });
    expect(screen.getByRole('button', { name: 'Edit' })).toHaveFocus();
  });

  it('offers no Edit while editing is not possible', () => {
    show(question);
    expect(screen.queryByRole('button', { name: 'Edit' })).not.toBeInTheDocument();
  });
});
