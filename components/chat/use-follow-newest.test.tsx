// @vitest-environment happy-dom
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { useFollowNewest } from './use-follow-newest';

/** ResizeObserver, driven by the test: `resize(element, height)` reports a new size. */
const observers = new Map<Element, ResizeObserverCallback>();
class FakeResizeObserver {
  constructor(private readonly callback: ResizeObserverCallback) {}
  observe(element: Element) {
    observers.set(element, this.callback);
  }
  disconnect() {
    for (const [element, callback] of observers) {
      if (callback === this.callback) observers.delete(element);
    }
  }
}

function resize(element: Element, height: number) {
  const entry = { target: element, contentRect: { height } } as unknown as ResizeObserverEntry;
  observers.get(element)?.([entry], {} as ResizeObserver);
}

/** Gives the element a fixed scroll geometry, as a laid-out browser would. */
function layout(element: HTMLElement, { scrollHeight, clientHeight }: Record<string, number>) {
  Object.defineProperty(element, 'scrollHeight', { configurable: true, value: scrollHeight });
  Object.defineProperty(element, 'clientHeight', { configurable: true, value: clientHeight });
}

/** A few frames' time (happy-dom runs animation frames as immediates, so time is the measure). */
const threeFrames = () => act(() => new Promise((resolve) => setTimeout(resolve, 50)));

function Transcript() {
  const { scrollRef, contentRef } = useFollowNewest();
  return (
    <div ref={scrollRef} data-testid="scroller">
      <div ref={contentRef} data-testid="content" />
    </div>
  );
}

beforeEach(() => {
  observers.clear();
  vi.stubGlobal('ResizeObserver', FakeResizeObserver);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** The distance from the view's bottom to the end of the content. */
const gap = (scroller: HTMLElement) =>
  scroller.scrollHeight - scroller.scrollTop - scroller.clientHeight;

it('follows growing content to its end at once, not a spring’s trail behind it', async () => {
  render(<Transcript />);
  const scroller = screen.getByTestId('scroller');
  const content = screen.getByTestId('content');
  layout(scroller, { scrollHeight: 1000, clientHeight: 400 });
  resize(content, 1000);
  await threeFrames();
  expect(gap(scroller)).toBeLessThanOrEqual(1);

  // A streamed line: the very next frame shows it.
  layout(scroller, { scrollHeight: 1080, clientHeight: 400 });
  resize(content, 1080);
  await threeFrames();
  expect(gap(scroller)).toBeLessThanOrEqual(1);
});

it('scrolls to the end again when the scroller itself shrinks (the composer grew)', async () => {
  render(<Transcript />);
  const scroller = screen.getByTestId('scroller');
  const content = screen.getByTestId('content');
  layout(scroller, { scrollHeight: 1000, clientHeight: 400 });
  resize(content, 1000);
  await threeFrames();

  layout(scroller, { scrollHeight: 1000, clientHeight: 330 });
  expect(gap(scroller)).toBeGreaterThan(60);
  resize(scroller, 330);
  await threeFrames();
  expect(gap(scroller)).toBeLessThanOrEqual(1);
});
