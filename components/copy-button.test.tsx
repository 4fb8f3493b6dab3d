// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, expect, it, vi } from 'vitest';
import { CopyButton } from './copy-button';

const toast = vi.hoisted(() => ({ success: vi.fn(), error: vi.fn() }));
vi.mock('sonner', () => ({ toast }));

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  toast.success.mockReset();
  toast.error.mockReset();
});

function withClipboard(writeText: (text: string) => Promise<void>) {
  vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
}

it('puts the text on the clipboard and says so in a toast', async () => {
  const writeText = vi.fn(async () => {});
  withClipboard(writeText);
  render(
    <CopyButton text="https://q.example/c/abc" label="Copy link" copiedMessage="Link copied" />,
  );
  fireEvent.click(screen.getByRole('button', { name: 'Copy link' }));
  await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Link copied'));
  expect(writeText).toHaveBeenCalledWith('https://q.example/c/abc');
  // The name stays put while the icon turns into a check: focus and screen readers keep it.
  expect(screen.getByRole('button', { name: 'Copy link' })).toBeInTheDocument();
});

it('says when the clipboard refused', async () => {
  withClipboard(async () => {
    throw new Error('denied');
  });
  render(<CopyButton text="qk_secret" label="Copy token" copiedMessage="Token copied" />);
  fireEvent.click(screen.getByRole('button', { name: 'Copy token' }));
  await waitFor(() => expect(toast.error).toHaveBeenCalled());
  expect(toast.success).not.toHaveBeenCalled();
});
