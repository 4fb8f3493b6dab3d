// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, expect, it, vi } from 'vitest';
import type { QuantaToolPart, ToolOutput } from '@/lib/protocol';
import { ToolCard } from './tool-card';

afterEach(cleanup);

function call(output: ToolOutput): QuantaToolPart {
  return {
    type: 'tool-plot',
    toolCallId: 'call_1',
    state: 'output-available',
    input: { kind: 'line', points: [1, 4, 9] },
    output,
  };
}

/** Shows the card and opens it, as a person would. */
function open(part: QuantaToolPart) {
  render(<ToolCard part={part} />);
  const card = screen.getByRole('group', { name: 'plot tool call' });
  const trigger = within(card).getByRole('button');
  expect(trigger).toHaveAttribute('aria-expanded', 'false');
  fireEvent.click(trigger);
  expect(trigger).toHaveAttribute('aria-expanded', 'true');
  return card;
}

const panel = (card: HTMLElement, name: string) => within(card).getByRole('figure', { name });

it('folded, shows the state, the name, an argument preview and the duration', () => {
  render(<ToolCard part={call({ isError: false, modelText: 'ok', durationMs: 1500 })} />);
  const card = screen.getByRole('group', { name: 'plot tool call' });
  expect(card).toHaveAttribute('data-state', 'done');
  expect(card).toHaveTextContent('Done');
  expect(card).toHaveTextContent('line, [1,4,9]');
  expect(card).toHaveTextContent('1.5 s');
  expect(within(card).queryByRole('figure')).not.toBeInTheDocument();
});

it('folded, mounts without measuring the page: no forced layout as a scroll brings it in', () => {
  const measured = vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect');
  try {
    render(<ToolCard part={call({ isError: false, modelText: 'ok', durationMs: 1 })} />);
    expect(measured).not.toHaveBeenCalled();
  } finally {
    measured.mockRestore();
  }
});

it('open, shows the arguments, and side by side the exact model text and the widget with its data', () => {
  const modelText = 'Plotted 3 points.\n  y from 1 to 9 (line)  ';
  const card = open(
    call({
      isError: false,
      modelText,
      ui: { kind: 'widget', label: 'Open chart', widget: 'chart', data: { points: [1, 4, 9] } },
      durationMs: 4,
    }),
  );
  expect(panel(card, 'Arguments').querySelector('pre')?.textContent).toBe(
    JSON.stringify({ kind: 'line', points: [1, 4, 9] }, null, 2),
  );
  // Exactly what the model received, whitespace and all.
  expect(panel(card, 'Sent to the model').querySelector('pre')?.textContent).toBe(modelText);
  const human = panel(card, 'Shown only to you');
  expect(human).toHaveTextContent('The chart widget, behind the button “Open chart”');
  expect(human.querySelector('pre')?.textContent).toBe(
    JSON.stringify({ points: [1, 4, 9] }, null, 2),
  );
});

it('open, shows a note as what only the person got', () => {
  const card = open(
    call({
      isError: false,
      modelText: 'saved',
      ui: { kind: 'text', text: 'Saved' },
      durationMs: 2,
    }),
  );
  expect(panel(card, 'Sent to the model')).toHaveTextContent('saved');
  expect(panel(card, 'Shown only to you')).toHaveTextContent('Saved');
});

it('open, an error shows the text the model was sent, and nothing only for the person', () => {
  const card = open(call({ isError: true, modelText: 'points: must be numbers', durationMs: 1 }));
  expect(card).toHaveAttribute('data-state', 'error');
  expect(panel(card, 'Sent to the model')).toHaveTextContent('points: must be numbers');
  expect(panel(card, 'Shown only to you')).toHaveTextContent('Nothing');
});
