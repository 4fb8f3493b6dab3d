// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, expect, it, vi } from 'vitest';
import type { WidgetData } from '@/lib/widgets';
import { viewProps } from '@/tests/helpers/widgets';
import type { tasks } from './actions';
import TasksView from './view';

afterEach(cleanup);

const board: WidgetData<typeof tasks> = {
  tasks: [
    { id: 't1', title: 'water the plants', column: 'todo' },
    { id: 't2', title: 'buy milk', column: 'doing' },
  ],
};

it('shows each column with its tasks, and moves, deletes and adds', async () => {
  const act = vi.fn(async () => true);
  render(<TasksView {...viewProps} data={board} act={act} />);
  const doing = screen.getByRole('region', { name: 'Doing' });
  expect(within(doing).getByText('buy milk')).toBeInTheDocument();
  expect(
    within(screen.getByRole('region', { name: 'Done' })).getByText('Nothing here.'),
  ).toBeInTheDocument();

  fireEvent.click(screen.getByRole('button', { name: 'Move “buy milk” to Done' }));
  fireEvent.click(screen.getByRole('button', { name: 'Delete “water the plants”' }));
  fireEvent.change(screen.getByRole('textbox', { name: 'New task' }), {
    target: { value: ' call mum ' },
  });
  fireEvent.click(screen.getByRole('button', { name: 'Add' }));
  expect(act.mock.calls).toEqual([
    ['move', { id: 't2', column: 'done' }],
    ['delete', { id: 't1' }],
    ['add', { title: 'call mum' }],
  ]);
  await vi.waitFor(() => expect(screen.getByRole('textbox', { name: 'New task' })).toHaveValue(''));
});

it('while an action runs, marks its controls pending rather than disabling them', () => {
  const act = vi.fn(async () => true);
  render(<TasksView {...viewProps} data={board} pending act={act} />);
  const move = screen.getByRole('button', { name: 'Move “water the plants” to Doing' });
  expect(move).not.toBeDisabled();
  expect(move).toHaveAttribute('aria-disabled', 'true');
  fireEvent.click(move);
  expect(act).not.toHaveBeenCalled();
});

it('is read-only for a reader: no new task, every control disabled', () => {
  render(<TasksView {...viewProps} data={board} readOnly />);
  expect(screen.queryByRole('textbox', { name: 'New task' })).not.toBeInTheDocument();
  for (const button of screen.getAllByRole('button')) expect(button).toBeDisabled();
});
