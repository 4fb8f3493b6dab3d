'use client';

import { useEffect } from 'react';
import { useStickToBottom } from 'use-stick-to-bottom';

/**
 * Keeps the newest line of the transcript in view as it grows, until the reader scrolls up.
 *
 * use-stick-to-bottom does the following; two things in it left the view short of the end.
 * Its default spring animation trails growing content by about ten frames of growth (tens of
 * pixels while an answer streams fast) and catches up only once the answer stops: growth is
 * followed instantly instead. And it watches the content, not the scroller: when the scroller
 * shrinks (the composer grows a line, a note appears above it) the end slides out of view, so
 * a resize of the scroller, while following, scrolls to the end again.
 */
export function useFollowNewest() {
  const { scrollRef, contentRef, isAtBottom, scrollToBottom, stopScroll, state } = useStickToBottom(
    {
      initial: 'instant',
      resize: 'instant',
    },
  );

  useEffect(() => {
    const scroller = scrollRef.current;
    if (!scroller || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => {
      if (state.isAtBottom) void scrollToBottom('instant');
    });
    observer.observe(scroller);
    return () => observer.disconnect();
  }, [scrollRef, scrollToBottom, state]);

  return { scrollRef, contentRef, isAtBottom, scrollToBottom, stopScroll };
}
