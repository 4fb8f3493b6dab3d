// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, expect, it, vi } from 'vitest';
import { Composer } from './composer';

afterEach(cleanup);

const field = () => screen.getByRole('textbox', { name: 'Message' }) as HTMLTextAreaElement;

it('sends on Enter and keeps Shift+Enter for a new line', () => {
  const onSend = vi.fn(() => undefined);
  render(<Composer onSend={onSend} />);
  fireEvent.change(field(), { target: { value: 'first line' } });
  fireEvent.keyDown(field(), { key: 'Enter', shiftKey: true });
  expect(onSend).not.toHaveBeenCalled();
  fireEvent.keyDown(field(), { key: 'Enter' });
  expect(onSend).toHaveBeenCalledWith('first line');
  expect(field().value).toBe('');
});

it('while a turn runs, offers Stop and keeps what is typed for later', () => {
  const onSend = vi.fn(() => undefined);
  const onStop = vi.fn();
  render(<Composer onSend={onSend} running onStop={onStop} />);
  fireEvent.change(field(), { target: { value: 'next question' } });
  fireEvent.keyDown(field(), { key: 'Enter' });
  expect(onSend).not.toHaveBeenCalled();
  expect(field().value).toBe('next question');
  fireEvent.click(screen.getByRole('button', { name: 'Stop' }));
  expect(onStop).toHaveBeenCalled();
});

it('gives back the text of a message that could not be sent', async () => {
  render(<Composer onSend={() => Promise.reject(new Error('refused'))} />);
  fireEvent.change(field(), { target: { value: 'keep me' } });
  fireEvent.keyDown(field(), { key: 'Enter' });
  await vi.waitFor(() => expect(field().value).toBe('keep me'));
});

it('says why it is disabled', () => {
  render(<Composer onSend={() => undefined} disabledReason="This session is read-only." />);
  expect(field().disabled).toBe(true);
  expect(field()).toHaveAttribute('aria-describedby');
  expect(screen.getAllByText('This session is read-only.').length).toBeGreaterThan(0);
});

it('takes the focus when asked to, where a new conversation starts', () => {
  render(<Composer onSend={() => undefined} autoFocus />);
  expect(field()).toHaveFocus();
});

it('keeps the focus in the field after Send is clicked and after Stop', () => {
  const { rerender } = render(<Composer onSend={() => undefined} />);
  fireEvent.change(field(), { target: { value: 'hello' } });
  const send = screen.getByRole('button', { name: 'Send' });
  send.focus();
  fireEvent.click(send);
  expect(field()).toHaveFocus();
  expect(field().value).toBe('');

  rerender(<Composer onSend={() => undefined} running onStop={() => {}} />);
  const stop = screen.getByRole('button', { name: 'Stop' });
  stop.focus();
  fireEvent.click(stop);
  expect(field()).toHaveFocus();
});

it('shows its tools (the model picker) beside Send', () => {
  render(<Composer onSend={() => undefined} tools={<span>Demo model</span>} />);
  const form = field().closest('form') as HTMLElement;
  expect(form).toContainElement(screen.getByText('Demo model'));
});
