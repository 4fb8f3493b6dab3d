// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, expect, it } from 'vitest';
import { Button } from './button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from './dialog';

afterEach(cleanup);

function RenameDialog() {
  return (
    <Dialog>
      <DialogTrigger asChild>
        <Button>Rename</Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Rename session</DialogTitle>
          <DialogDescription>The name shows in the sidebar.</DialogDescription>
        </DialogHeader>
      </DialogContent>
    </Dialog>
  );
}

function openFromTrigger() {
  render(<RenameDialog />);
  const trigger = screen.getByRole('button', { name: 'Rename' });
  trigger.focus();
  fireEvent.click(trigger);
  expect(screen.getByRole('dialog')).toContainElement(document.activeElement as HTMLElement);
  return trigger;
}

it('is announced as a dialog named by its title and described by its description', () => {
  openFromTrigger();
  const dialog = screen.getByRole('dialog', { name: 'Rename session' });
  expect(dialog).toHaveAccessibleDescription('The name shows in the sidebar.');
});

it('returns focus to its trigger when the ✕ closes it', async () => {
  const trigger = openFromTrigger();
  fireEvent.click(screen.getByRole('button', { name: 'Close' }));
  await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  await waitFor(() => expect(trigger).toHaveFocus());
});

it('returns focus to its trigger when Escape closes it', async () => {
  const trigger = openFromTrigger();
  fireEvent.keyDown(screen.getByRole('dialog'), { key: 'Escape' });
  await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  await waitFor(() => expect(trigger).toHaveFocus());
});
