// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, expect, it, vi } from 'vitest';
import { splitError, TurnError } from './turn-error';

afterEach(cleanup);

it('takes the first sentence as the plain words, and the rest as details', () => {
  expect(splitError('The model provider failed (HTTP 503). Overloaded, try later.')).toEqual({
    summary: 'The model provider failed (HTTP 503).',
    details: 'Overloaded, try later.',
  });
  expect(splitError('A turn is already running here: wait or stop it.')).toEqual({
    summary: 'A turn is already running here: wait or stop it.',
  });
  expect(splitError('Could not reach the model at api.example.com: fetch failed')).toEqual({
    summary: 'Could not reach the model at api.example.com: fetch failed',
  });
});

it('is an alert with the plain words, details folded away, and a real Retry button', () => {
  const retry = vi.fn();
  render(<TurnError message="The model provider failed (HTTP 503). Overloaded" onRetry={retry} />);
  const alert = screen.getByRole('alert');
  expect(alert).toHaveTextContent('The model provider failed (HTTP 503).');
  const details = within(alert).getByText('Details').closest('details') as HTMLDetailsElement;
  expect(details.open).toBe(false);
  expect(details).toHaveTextContent('Overloaded');
  fireEvent.click(within(alert).getByRole('button', { name: 'Retry' }));
  expect(retry).toHaveBeenCalledOnce();
});

it('has no details and no Retry when there are none to give', () => {
  render(<TurnError message="The turn failed." />);
  expect(screen.getByRole('alert')).toHaveTextContent(/^The turn failed\.$/);
  expect(screen.queryByText('Details')).not.toBeInTheDocument();
  expect(screen.queryByRole('button')).not.toBeInTheDocument();
});
