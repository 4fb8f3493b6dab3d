'use client';

import Link from 'next/link';
import { type ComponentProps, useState } from 'react';

type IntentLinkProps = Omit<ComponentProps<typeof Link>, 'prefetch'>;

/**
 * A link that prefetches its page once the reader reaches for it (a pointer over it, a finger
 * on it, keyboard focus), not as soon as it is in view. Next prefetches every link in view: in
 * a list of many, such as the sidebar's chats, each page view asked the server for the page of
 * every chat on the screen (bench/README.md, "A page view in a long list of chats").
 */
export function IntentLink({ onPointerEnter, onFocus, ...props }: IntentLinkProps) {
  const [reached, setReached] = useState(false);
  return (
    <Link
      {...props}
      // `null` is Next's own prefetch: a link in view, as this one is, prefetches at once.
      prefetch={reached ? null : false}
      onPointerEnter={(event) => {
        setReached(true);
        onPointerEnter?.(event);
      }}
      onFocus={(event) => {
        setReached(true);
        onFocus?.(event);
      }}
    />
  );
}
