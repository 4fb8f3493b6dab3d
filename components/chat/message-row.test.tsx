// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { QuantaMessage, ToolOutput } from '@/lib/protocol';
import { MessageRow } from './message-row';

afterEach(cleanup);

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

function show(message: QuantaMessage, onOpenWidget = vi.fn()) {
  render(
    <ol>
      <MessageRow message={message} onOpenWidget={onOpenWidget} />
    </ol>,
  );
  return onOpenWidget;
}

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
    expect(note.textContent).toContain('Saved to notes');
    const card = screen.getByText('demo').closest('details');
    // The note follows the card and is not part of the answer's text.
    expect(card?.parentElement?.contains(note)).toBe(true);
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
    const card = screen.getByText('demo').closest('details') as HTMLElement;
    expect(within(card).getByText('Error · 1 ms')).toBeInTheDocument();
    expect(card).toHaveAttribute('data-state', 'error');
    expect(within(card).getByText('count: must be integer')).toBeInTheDocument();
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
    expect(screen.queryByRole('complementary')).not.toBeInTheDocument();
  });

  it('shows a running call with its argument preview and no result yet', () => {
    show({
      id: 'a2',
      role: 'assistant',
      parts: [
        { type: 'tool-demo', toolCallId: 'c', state: 'input-available', input: { what: 'thing' } },
      ],
    });
    expect(screen.getByText('demo').closest('details')).toHaveAttribute('data-state', 'running');
    expect(screen.getByText('Running…')).toBeInTheDocument();
    expect(screen.getByText('thing')).toBeInTheDocument();
    expect(screen.queryByText('Result')).not.toBeInTheDocument();
  });

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
