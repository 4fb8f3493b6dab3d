'use client';

import { type RefObject, useCallback, useEffect, useRef } from 'react';

/** What a reader does to move a view themselves. */
export const READER_INPUT = ['wheel', 'touchstart', 'touchmove', 'pointerdown', 'keydown'] as const;

/** How long after the reader's last input in the scroller a scroll is taken for theirs. */
const INPUT_MS = 1_000;

/** A key pressed in a field types; it does not move the view around it. */
const typing = (target: EventTarget | null) =>
  target instanceof HTMLElement &&
  (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName));

/**
 * Whether the reader is moving the scroller's view themselves: a pointer held down in it (a
 * scrollbar dragged, text selected), their wheel, touch or pointer in it within the last second,
 * or a key they pressed anywhere but in a field in that time (a key scrolls the scroller last
 * clicked, while the focus stays on the page's body).
 */
export function useReaderInput(scrollRef: RefObject<HTMLElement | null>): () => boolean {
  const last = useRef(Number.NEGATIVE_INFINITY);
  const held = useRef(false);
  useEffect(() => {
    const scroller = scrollRef.current;
    if (!scroller) return;
    const heard = (event: Event) => {
      if (event.type === 'keydown' && typing(event.target)) return;
      last.current = performance.now();
      if (event.type === 'pointerdown') held.current = true;
    };
    const released = () => {
      held.current = false;
    };
    const inScroller = READER_INPUT.filter((type) => type !== 'keydown');
    for (const type of inScroller) scroller.addEventListener(type, heard, { passive: true });
    window.addEventListener('keydown', heard, { passive: true });
    window.addEventListener('pointerup', released);
    window.addEventListener('pointercancel', released);
    return () => {
      for (const type of inScroller) scroller.removeEventListener(type, heard);
      window.removeEventListener('keydown', heard);
      window.removeEventListener('pointerup', released);
      window.removeEventListener('pointercancel', released);
    };
  }, [scrollRef]);
  return useCallback(() => held.current || performance.now() - last.current < INPUT_MS, []);
}
