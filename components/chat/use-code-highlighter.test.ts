// @vitest-environment happy-dom
import { renderHook, waitFor } from '@testing-library/react';
import { expect, it, vi } from 'vitest';
import { useCodeHighlighter } from './use-code-highlighter';

const highlighter = vi.hoisted(() => ({ started: 0 }));
vi.mock('./worker-highlighter', () => ({
  workerHighlighter: () => {
    highlighter.started += 1;
    return { name: 'shiki' };
  },
}));

// In this order: the highlighter, once started, stays for the page.

it('never starts the highlighter for a text without a code block', async () => {
  const { result, rerender } = renderHook(({ text }) => useCodeHighlighter(text), {
    initialProps: { text: 'Some `inline` code, and **bold**' },
  });
  rerender({ text: 'Some `inline` code, and **bold** words.\n\n    indented' });
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(result.current).toBeUndefined();
  expect(highlighter.started).toBe(0);
});

it('starts it when the text gains a code block, and gives it to the next text at once', async () => {
  const { result, rerender } = renderHook(({ text }) => useCodeHighlighter(text), {
    initialProps: { text: 'Here it is:' },
  });
  rerender({ text: 'Here it is:\n\n```ts\nconst answer = 42;' });
  await waitFor(() => expect(result.current?.code?.name).toBe('shiki'));

  const next = renderHook(() => useCodeHighlighter('~~~\nplain\n~~~'));
  expect(next.result.current?.code?.name).toBe('shiki');
  expect(highlighter.started).toBe(1);
});
