// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, expect, it, vi } from 'vitest';
import { Button } from './button';

afterEach(cleanup);

it('keeps focus when it becomes pending, and is announced as unavailable, not removed', () => {
  const { rerender } = render(<Button>Save</Button>);
  const button = screen.getByRole('button', { name: 'Save' });
  button.focus();

  rerender(<Button pending>Save</Button>);

  expect(button).toHaveFocus();
  expect(button).not.toBeDisabled();
  expect(button).toHaveAttribute('aria-disabled', 'true');
  expect(button).toHaveAttribute('aria-busy', 'true');
});

it('ignores clicks and does not submit its form while pending', () => {
  const onClick = vi.fn();
  const onSubmit = vi.fn((event: SubmitEvent) => event.preventDefault());
  const { rerender } = render(
    <form onSubmit={(event) => onSubmit(event.nativeEvent as SubmitEvent)}>
      <Button type="submit" pending onClick={onClick}>
        Save
      </Button>
    </form>,
  );

  fireEvent.click(screen.getByRole('button', { name: 'Save' }));
  expect(onClick).not.toHaveBeenCalled();
  expect(onSubmit).not.toHaveBeenCalled();

  rerender(
    <form onSubmit={(event) => onSubmit(event.nativeEvent as SubmitEvent)}>
      <Button type="submit" onClick={onClick}>
        Save
      </Button>
    </form>,
  );
  fireEvent.click(screen.getByRole('button', { name: 'Save' }));
  expect(onClick).toHaveBeenCalledOnce();
  expect(onSubmit).toHaveBeenCalledOnce();
});

it('lets a caller class override a variant class', () => {
  render(<Button className="px-8">Wide</Button>);
  const button = screen.getByRole('button', { name: 'Wide' });
  expect(button).toHaveClass('px-8');
  expect(button).not.toHaveClass('px-4');
  expect(button).toHaveAttribute('data-slot', 'button');
});
