// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import type { ComponentProps } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { QuantaMessage, ToolOutput } from '@/lib/protocol';
import { MessageRow } from './message-row';

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
  it('marks a failed turn with its cause and a stopped one as stopped', () => {
    show({
      id: 'a3',
      role: 'assistant',
      parts: [{ type: 'text', text: 'Once upon', state: 'done' }],
      metadata: { status: 'failed', error: 'The model provider failed (HTTP 500).' },
    });
    expect(screen.getByRole('alert').textContent).toBe('The model provider failed (HTTP 500).');
    cleanup();
    show({
      id: 'a4',
      role: 'assistant',
      parts: [{ type: 'text', text: 'Once upon', state: 'done' }],
      metadata: { status: 'stopped' },
    });
    expect(screen.getByText('Stopped.')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('shows reasoning collapsed, apart from the answer', () => {
    show({
      id: 'a5',
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
