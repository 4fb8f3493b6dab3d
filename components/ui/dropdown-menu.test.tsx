// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, expect, it, vi } from 'vitest';
import { Button } from './button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from './dropdown-menu';

afterEach(cleanup);

function SessionMenu({ onDelete }: { onDelete: () => void }) {
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="ghost">Session actions</Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent>
        <DropdownMenuLabel>Session</DropdownMenuLabel>
        <DropdownMenuItem>Rename</DropdownMenuItem>
        <DropdownMenuSeparator />
        <DropdownMenuItem variant="destructive" onSelect={onDelete}>
          Delete
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}

it('opens from the keyboard with focus on its first item, and Enter picks an item', async () => {
  const onDelete = vi.fn();
  render(<SessionMenu onDelete={onDelete} />);
  const trigger = screen.getByRole('button', { name: 'Session actions' });
  trigger.focus();

  fireEvent.keyDown(trigger, { key: 'Enter' });

  await screen.findByRole('menu');
  expect(trigger).toHaveAttribute('aria-expanded', 'true');
  const rename = screen.getByRole('menuitem', { name: 'Rename' });
  await waitFor(() => expect(rename).toHaveFocus());

  fireEvent.keyDown(rename, { key: 'ArrowDown' });
  const remove = screen.getByRole('menuitem', { name: 'Delete' });
  await waitFor(() => expect(remove).toHaveFocus());
  fireEvent.keyDown(remove, { key: 'Enter' });

  expect(onDelete).toHaveBeenCalledOnce();
  await waitFor(() => expect(screen.queryByRole('menu')).not.toBeInTheDocument());
  await waitFor(() => expect(trigger).toHaveFocus());
});
