'use client';

import Link from 'next/link';
import { useRouter } from 'next/navigation';
import type { ComponentProps } from 'react';

type IntentLinkProps = Omit<ComponentProps<typeof Link>, 'href' | 'prefetch'> & { href: string };

/**
 * A link that prefetches its page once the reader reaches for it (a pointer over it, a finger
 * on it, keyboard focus), not as soon as it is in view. Next prefetches every link in view: in
 * a list of many, such as the sidebar's chats, each page view asked the server for the page of
 * every chat on the screen (bench/README.md, "A page view in a long list of chats"). The
 * router is asked in the handler itself: a finger's tap follows its touch too closely to wait
 * for a render. The router keeps what it prefetched, so reaching again asks nothing more.
 */
export function IntentLink({ href, onPointerEnter, onFocus, ...props }: IntentLinkProps) {
  const router = useRouter();
  return (
    <Link
      {...props}
      href={href}
      prefetch={false}
      onPointerEnter={(event) => {
        router.prefetch(href);
        onPointerEnter?.(event);
      }}
      onFocus={(event) => {
        router.prefetch(href);
        onFocus?.(event);
      }}
    />
  );
}
