// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, expect, it, vi } from 'vitest';
import { viewProps } from '@/tests/helpers/widgets';
import CounterView from './view';

afterEach(cleanup);

const buttons = () =>
  ['Decrement', 'Increment', 'Reset'].map((name) => screen.getByRole('button', { name }));

it('acts with each button and hands the agent a question about the count', () => {
  const act = vi.fn(async () => true);
  const sendMessage = vi.fn();
  render(<CounterView {...viewProps} data={{ count: 3 }} act={act} sendMessage={sendMessage} />);
  for (const button of buttons()) fireEvent.click(button);
  expect(act.mock.calls).toEqual([['decrement'], ['increment'], ['reset']]);
  fireEvent.click(screen.getByRole('button', { name: 'Ask the agent about 3' }));
  expect(sendMessage).toHaveBeenCalledWith('The counter is at 3: what is 3 * 3?');
});

it('while an action runs, marks its buttons pending, not disabled, and ignores them', () => {
  const act = vi.fn(async () => true);
  render(<CounterView {...viewProps} data={{ count: 3 }} pending act={act} />);
  for (const button of buttons()) {
    expect(button).not.toBeDisabled();
    expect(button).toHaveAttribute('aria-disabled', 'true');
    fireEvent.click(button);
  }
  expect(act).not.toHaveBeenCalled();
});

it('is disabled for a reader, who cannot ask the agent either', () => {
  render(<CounterView {...viewProps} data={{ count: 3 }} readOnly />);
  for (const button of buttons()) expect(button).toBeDisabled();
  expect(screen.queryByRole('button', { name: /Ask the agent/ })).not.toBeInTheDocument();
});
