// @vitest-environment happy-dom
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { useFollowNewest } from './use-follow-newest';

/** ResizeObserver, driven by the test: `resize(element, height)` reports a new size. */
const observers = new Map<Element, Set<ResizeObserverCallback>>();
class FakeResizeObserver {
  constructor(private readonly callback: ResizeObserverCallback) {}
  observe(element: Element) {
    observers.set(element, (observers.get(element) ?? new Set()).add(this.callback));
  }
  disconnect() {
    for (const callbacks of observers.values()) callbacks.delete(this.callback);
  }
}

function resize(element: Element, height: number) {
  const entry = { target: element, contentRect: { height } } as unknown as ResizeObserverEntry;
  for (const callback of observers.get(element) ?? []) callback([entry], {} as ResizeObserver);
}

/** Gives the element a fixed scroll geometry, as a laid-out browser would. */
function layout(element: HTMLElement, { scrollHeight, clientHeight }: Record<string, number>) {
  Object.defineProperty(element, 'scrollHeight', { configurable: true, value: scrollHeight });
  Object.defineProperty(element, 'clientHeight', { configurable: true, value: clientHeight });
}

/** A few frames' time (happy-dom runs animation frames as immediates, so time is the measure). */
const threeFrames = () => act(() => new Promise((resolve) => setTimeout(resolve, 50)));

function Transcript() {
  const { scrollRef, contentRef, isAtBottom, stopScroll } = useFollowNewest();
  return (
    <>
      <div ref={scrollRef} data-testid="scroller" style={{ overflowY: 'auto' }}>
        <div ref={contentRef} data-testid="content">
          <textarea aria-label="Edit message" />
        </div>
      </div>
      <button type="button" onClick={stopScroll}>
        Stop following
      </button>
      {!isAtBottom && <p>Jump to latest</p>}
    </>
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

/** The transcript followed to the end of 1,000 px of content in a 400 px view. */
async function following() {
  render(<Transcript />);
  const scroller = screen.getByTestId('scroller');
  layout(scroller, { scrollHeight: 1000, clientHeight: 400 });
  resize(screen.getByTestId('content'), 1000);
  await threeFrames();
  expect(gap(scroller)).toBeLessThanOrEqual(1);
  return scroller;
}

/** The view moved up by `px`, as the browser reports it. */
function scrollUp(scroller: HTMLElement, px: number) {
  scroller.scrollTop -= px;
  scroller.dispatchEvent(new Event('scroll'));
}

/**
 * What virtua does when it measures the rows it mounted and finds one above the view shorter
 * than it guessed: the content is measured again (its total as it was: the rows in view were
 * taller) and, a frame later, the view moves up by the difference.
 */
async function correctGuess(scroller: HTMLElement) {
  resize(screen.getByTestId('content'), 1000);
  await threeFrames();
  scrollUp(scroller, 210);
}

it('follows again when the page moves the view as it corrects a row’s height', async () => {
  const scroller = await following();
  await correctGuess(scroller);
  await threeFrames();
  expect(gap(scroller)).toBeLessThanOrEqual(1);
  expect(screen.queryByText('Jump to latest')).toBeNull();
});

it('lets go on a scroll up with no resize, whoever made it (find in page)', async () => {
  const scroller = await following();
  await act(() => new Promise((resolve) => setTimeout(resolve, 300)));
  scrollUp(scroller, 210);
  await threeFrames();
  expect(gap(scroller)).toBeGreaterThanOrEqual(210);
  expect(screen.getByText('Jump to latest')).toBeTruthy();
});

it('lets go when the reader scrolls up: the wheel, a key, a pointer held down', async () => {
  const inputs = [
    () => new WheelEvent('wheel', { deltaY: -100, bubbles: true }),
    () => new KeyboardEvent('keydown', { key: 'PageUp', bubbles: true }),
    () => new PointerEvent('pointerdown', { bubbles: true }),
  ];
  for (const input of inputs) {
    const scroller = await following();
    // Soon after the content's last resize, which a page's correction would come with.
    scroller.dispatchEvent(input());
    scrollUp(scroller, 210);
    await threeFrames();
    expect(gap(scroller), input().type).toBeGreaterThanOrEqual(210);
    cleanup();
  }
});

it('lets go while the reader holds a pointer down, however long (a scrollbar dragged)', async () => {
  const scroller = await following();
  scroller.dispatchEvent(new PointerEvent('pointerdown', { bubbles: true }));
  await act(() => new Promise((resolve) => setTimeout(resolve, 1_100)));
  resize(screen.getByTestId('content'), 1000);
  await threeFrames();
  scrollUp(scroller, 210);
  await threeFrames();
  expect(gap(scroller)).toBeGreaterThanOrEqual(210);
});

it('lets go when the reader scrolls with a key while the focus is on the page', async () => {
  const scroller = await following();
  // A click in the transcript's text leaves the focus on the body; its keys scroll the scroller.
  document.body.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowUp', bubbles: true }));
  scrollUp(scroller, 210);
  await threeFrames();
  expect(gap(scroller)).toBeGreaterThanOrEqual(210);
});

it('follows again after a key typed in a field in the transcript (an edited message)', async () => {
  const scroller = await following();
  screen
    .getByRole('textbox', { name: 'Edit message' })
    .dispatchEvent(new KeyboardEvent('keydown', { key: 'a', bubbles: true }));
  scrollUp(scroller, 210);
  await threeFrames();
  expect(gap(scroller)).toBeLessThanOrEqual(1);
});

it('stops following when told to, until the view is at the end again', async () => {
  const scroller = await following();
  act(() => screen.getByRole('button', { name: 'Stop following' }).click());
  await correctGuess(scroller);
  await threeFrames();
  expect(gap(scroller)).toBeGreaterThanOrEqual(210);

  // The reader scrolls back to the end: from then on the page's corrections are followed again.
  layout(scroller, { scrollHeight: 1000, clientHeight: 400 });
  scroller.scrollTop = 599;
  scroller.dispatchEvent(new Event('scroll'));
  await threeFrames();
  await correctGuess(scroller);
  await threeFrames();
  expect(gap(scroller)).toBeLessThanOrEqual(1);
});
