// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, expect, it, vi } from 'vitest';
import { ConfirmDialog } from './confirm-dialog';

afterEach(cleanup);

function show(props: { disabled?: boolean; error?: Error | null } = {}) {
  const onOpenChange = vi.fn();
  const onConfirm = vi.fn();
  render(
    <ConfirmDialog
      open
      onOpenChange={onOpenChange}
      title="Rename session"
      confirmLabel="Save"
      tone="primary"
      disabled={props.disabled ?? false}
      error={props.error ?? null}
      onConfirm={onConfirm}
    >
      <label>
        Title
        <input defaultValue="Trip" />
      </label>
    </ConfirmDialog>,
  );
  return {
    dialog: screen.getByRole('dialog', { name: 'Rename session' }),
    onOpenChange,
    onConfirm,
  };
}

it('takes the action from its button, or Enter in a field', () => {
  const { dialog, onConfirm } = show();
  fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
  expect(onConfirm).toHaveBeenCalledTimes(1);
  fireEvent.submit(within(dialog).getByRole('textbox', { name: 'Title' }));
  expect(onConfirm).toHaveBeenCalledTimes(2);
});

it('closes on Cancel without taking the action', () => {
  const { dialog, onOpenChange, onConfirm } = show();
  fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
  expect(onOpenChange).toHaveBeenCalledWith(false);
  expect(onConfirm).not.toHaveBeenCalled();
});

it('refuses the action while disabled, and shows why the last try failed', () => {
  const { dialog, onConfirm } = show({ disabled: true, error: new Error('Title too long.') });
  expect(within(dialog).getByRole('button', { name: 'Save' })).toBeDisabled();
  fireEvent.submit(within(dialog).getByRole('textbox', { name: 'Title' }));
  expect(onConfirm).not.toHaveBeenCalled();
  expect(within(dialog).getByRole('alert')).toHaveTextContent('Title too long.');
});
