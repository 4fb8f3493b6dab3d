'use client';

import { type RefObject, useCallback, useEffect, useRef } from 'react';
import { READER_INPUT } from './reader-input';

/** How long a kept place is held while the rows put above it are measured. */
const HOLD_MS = 2_000;

type Place = { index: number; fromTop: number };

/**
 * Keeps a transcript row where the reader saw it while rows come in above it. virtua keeps the
 * place by its guess of the new rows' heights and corrects the guess as they are measured, but
 * stops correcting soon after the last scroll: on a slow device a row measured later pushed the
 * reader's rows down, off the view. `keep(index, fromTop)` holds row `index` (its element's
 * `data-index`) `fromTop` pixels below the top of the view: at once, and whenever the list's
 * size or the scroll position changes, until the reader moves the view (`READER_INPUT`) or
 * `HOLD_MS` pass.
 */
export function useKeptPlace(
  scrollRef: RefObject<HTMLElement | null>,
  listRef: RefObject<HTMLElement | null>,
) {
  const release = useRef<() => void>(undefined);
  useEffect(() => () => release.current?.(), []);

  return useCallback(
    ({ index, fromTop }: Place) => {
      release.current?.();
      const scroller = scrollRef.current;
      const list = listRef.current;
      if (!scroller || !list) return;
      const place = () => {
        const row = list.querySelector(`[data-index="${index}"]`);
        if (!row) return;
        const offset =
          row.getBoundingClientRect().top - scroller.getBoundingClientRect().top - fromTop;
        if (Math.abs(offset) >= 1) scroller.scrollTop += offset;
      };
      const resized = new ResizeObserver(place);
      resized.observe(list);
      scroller.addEventListener('scroll', place);
      for (const type of READER_INPUT) window.addEventListener(type, stop, { passive: true });
      const timer = setTimeout(stop, HOLD_MS);
      function stop() {
        resized.disconnect();
        scroller?.removeEventListener('scroll', place);
        for (const type of READER_INPUT) window.removeEventListener(type, stop);
        clearTimeout(timer);
        release.current = undefined;
      }
      release.current = stop;
      place();
    },
    [scrollRef, listRef],
  );
}
