'use client';

import { useCallback, useEffect, useLayoutEffect, useRef } from 'react';
import { useStickToBottom } from 'use-stick-to-bottom';
import { useReaderInput } from './reader-input';

/** How soon after the content's last resize a scroll up may be the page's correction of it. */
const RESIZE_MS = 250;

/**
 * Keeps the newest line of the transcript in view as it grows, until the reader scrolls up.
 *
 * use-stick-to-bottom does the following; three things in it left the view short of the end.
 * Its default spring animation trails growing content by about ten frames of growth (tens of
 * pixels while an answer streams fast) and catches up only once the answer stops: growth is
 * followed instantly instead. It watches the content, not the scroller: when the scroller
 * shrinks (the composer grows a line, a note appears above it) the end slides out of view, so
 * a resize of the scroller, while following, scrolls to the end again. And it lets go on any
 * scroll up, also the page's own: virtua moves the view when it corrects its guess of the height
 * of a row above it (opening a big session, the view then stopped following in some loads, 50 px
 * short of the end). So a let-go that comes with a resize of the content, and with no input of
 * the reader (`useReaderInput`), is followed again at once. A scroll that sends the page no input
 * (find in page, a screen reader) and comes without a resize still lets go. `stopScroll` lets go
 * on purpose, until the view is at the end again.
 */
export function useFollowNewest() {
  const { scrollRef, contentRef, isAtBottom, scrollToBottom, stopScroll, state } = useStickToBottom(
    {
      initial: 'instant',
      resize: 'instant',
    },
  );

  const lastResize = useRef(Number.NEGATIVE_INFINITY);
  useEffect(() => {
    const scroller = scrollRef.current;
    const content = contentRef.current;
    if (!scroller || !content || typeof ResizeObserver === 'undefined') return;
    const scrollerResized = new ResizeObserver(() => {
      if (state.isAtBottom) void scrollToBottom('instant');
    });
    scrollerResized.observe(scroller);
    const contentResized = new ResizeObserver(() => {
      lastResize.current = performance.now();
    });
    contentResized.observe(content);
    return () => {
      scrollerResized.disconnect();
      contentResized.disconnect();
    };
  }, [scrollRef, contentRef, scrollToBottom, state]);

  const readerMoving = useReaderInput(scrollRef);
  const letGo = useRef(false);
  const stop = useCallback(() => {
    letGo.current = true;
    stopScroll();
  }, [stopScroll]);
  // After every render (the hook's let-go is one), before the paint: "Jump to latest" never shows
  // for it, though the view virtua moved may show for a frame (the hook scrolls on the next one).
  const wasFollowing = useRef(true);
  useLayoutEffect(() => {
    const following = state.isAtBottom;
    const fell = wasFollowing.current && !following;
    wasFollowing.current = following;
    if (following) letGo.current = false;
    if (!fell || letGo.current || readerMoving()) return;
    if (performance.now() - lastResize.current < RESIZE_MS) void scrollToBottom('instant');
  });

  return { scrollRef, contentRef, isAtBottom, scrollToBottom, stopScroll: stop };
}
