// @vitest-environment happy-dom
import { act, renderHook } from '@testing-library/react';
import { afterEach, expect, it, vi } from 'vitest';
import type { ChatStatus } from './chat-store';
import { useStopTurn } from './use-stop-turn';

afterEach(() => vi.unstubAllGlobals());

function stopAnswers(...answers: boolean[]) {
  const fetch = vi.fn(async () => Response.json({ stopped: answers.shift() ?? false }));
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

function hook(initial: ChatStatus) {
  const stopReading = vi.fn();
  const view = renderHook(({ status }) => useStopTurn('s1', status, stopReading), {
    initialProps: { status: initial },
  });
  return { ...view, stopReading };
}

it('asks the server to stop a running turn, once', async () => {
  const fetch = stopAnswers(true);
  const { result } = hook('streaming');
  await act(() => result.current());
  expect(fetch).toHaveBeenCalledTimes(1);
  expect(fetch).toHaveBeenCalledWith(
    '/api/sessions/s1/stop',
    expect.objectContaining({ method: 'POST' }),
  );
});

it('stops a turn that had not reached the server as soon as it starts', async () => {
  const fetch = stopAnswers(false, true);
  const { result, rerender } = hook('submitted');
  await act(() => result.current());
  expect(fetch).toHaveBeenCalledTimes(1);
  await act(async () => rerender({ status: 'streaming' }));
  expect(fetch).toHaveBeenCalledTimes(2);
});

it('does not carry a Stop that came too late over to the next turn', async () => {
  const fetch = stopAnswers(false);
  const { result, rerender } = hook('streaming');
  // The turn ends while the server answers "not running".
  rerender({ status: 'ready' });
  await act(() => result.current());
  await act(async () => rerender({ status: 'submitted' }));
  await act(async () => rerender({ status: 'streaming' }));
  expect(fetch).toHaveBeenCalledTimes(1);
});

it('stops reading when the server cannot be reached', async () => {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => Promise.reject(new TypeError('offline'))),
  );
  const { result, stopReading } = hook('streaming');
  await act(() => result.current());
  expect(stopReading).toHaveBeenCalled();
});
