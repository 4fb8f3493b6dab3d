'use client';

import { useQuery } from '@tanstack/react-query';
import { SearchIcon, SquarePenIcon } from 'lucide-react';
import { usePathname } from 'next/navigation';
import { useDeferredValue, useState } from 'react';
import type { SessionView } from '@/lib/protocol';
import { sessionApi, sessionsKey } from './api';
import { ErrorAlert } from './error-alert';
import { focusComposer } from './focus-composer';
import { IntentLink } from './intent-link';
import { groupByDay } from './session-groups';
import { SessionRow } from './session-row';
import { TokenButton } from './token-button';
import { Button } from './ui/button';
import { Input } from './ui/input';
import { Skeleton } from './ui/skeleton';

type SessionsSidebarProps = {
  /** Called when a link in it is followed (the phone's drawer closes then). */
  onNavigate?: () => void;
};

/**
 * The owner's sessions: New chat, a search by title, the sessions grouped by the day they were
 * last updated, and the API tokens button.
 */
export function SessionsSidebar({ onNavigate }: SessionsSidebarProps) {
  const pathname = usePathname();
  const [query, setQuery] = useState('');

  return (
    <nav aria-label="Sessions" className="flex min-h-0 flex-1 flex-col gap-2 p-2">
      <div className="flex h-10 items-center px-2">
        <span className="font-semibold tracking-tight">Quanta</span>
      </div>
      {/* A new chat is only the home page: nothing is stored until its first message. Like a
          chat's link, it prefetches once reached for: in view on every page, it cost each page
          view two requests to the server. */}
      <Button asChild variant="outline" className="justify-start bg-transparent">
        <IntentLink
          href="/"
          onClick={() => {
            onNavigate?.();
            // Already home, nothing navigates: the composer still takes focus.
            if (pathname === '/') focusComposer();
          }}
        >
          <SquarePenIcon aria-hidden />
          New chat
        </IntentLink>
      </Button>
      <div className="relative">
        <SearchIcon
          aria-hidden
          className="pointer-events-none absolute top-1/2 left-2.5 size-4 -translate-y-1/2 text-muted-foreground"
        />
        <Input
          type="search"
          aria-label="Search chats"
          placeholder="Search chats"
          value={query}
          onChange={(event) => setQuery(event.target.value)}
          className="pl-8"
        />
      </div>
      <div className="-mx-2 min-h-0 flex-1 overflow-y-auto px-2">
        <SessionList
          query={query}
          isCurrent={(session) => pathname === `/c/${session.id}`}
          onNavigate={onNavigate}
        />
      </div>
      <div className="border-t border-sidebar-border pt-2">
        <TokenButton />
      </div>
    </nav>
  );
}

/** Rows enough to fill a tall sidebar: those render with the list, the others after them. */
const FIRST_ROWS = 24;

type SessionListProps = {
  query: string;
  isCurrent: (session: SessionView) => boolean;
  onNavigate?: () => void;
};

function SessionList({ query, isCurrent, onNavigate }: SessionListProps) {
  const sessions = useQuery({ queryKey: sessionsKey, queryFn: sessionApi.list });
  // Up to 100 rows, each with its link and menu: rendered at once, the list was one task of
  // some 30 ms of CPU as it arrived, and of 60-70 ms as the phone's drawer opened (it mounts the
  // sidebar then, its data at hand). So the count of rows shown is deferred, from a screenful:
  // React renders the others in slices, with other work between them. The data is deferred too,
  // so the loading skeleton stays until the rows replace it, rather than an empty list a frame.
  const page = useDeferredValue(sessions.data);
  const words = query.trim().toLocaleLowerCase();
  const found =
    page?.sessions.filter((session) => session.title.toLocaleLowerCase().includes(words)) ?? [];
  const shown = useDeferredValue(found.length, Math.min(found.length, FIRST_ROWS));

  if (sessions.error) {
    return <ErrorAlert>Could not load your chats: {sessions.error.message}</ErrorAlert>;
  }
  if (!page) {
    return (
      <div aria-busy="true" className="flex flex-col gap-2 px-2 pt-2">
        <span className="sr-only">Loading your chats…</span>
        {[75, 60, 85, 50].map((width) => (
          <Skeleton key={width} className="h-5" style={{ width: `${width}%` }} />
        ))}
      </div>
    );
  }
  if (page.sessions.length === 0)
    return <p className="px-2 py-1 text-sm text-muted-foreground">No chats yet.</p>;
  if (found.length === 0) {
    return (
      <p role="status" className="px-2 py-1 text-sm text-muted-foreground">
        No chats match “{query.trim()}”.
      </p>
    );
  }

  // One list, the day's heading in its first item: a session that moves to another day (it was
  // renamed, say) stays the same element, and keeps focus on its menu's button.
  return (
    <ul className="flex flex-col gap-0.5 pb-2">
      {groupByDay(found.slice(0, shown), new Date()).flatMap(({ group, items }) =>
        items.map((session, index) => (
          <li key={session.id}>
            {index === 0 && (
              <h2 className="px-2 pt-4 pb-1 text-xs font-medium text-muted-foreground">{group}</h2>
            )}
            <SessionRow session={session} current={isCurrent(session)} onNavigate={onNavigate} />
          </li>
        )),
      )}
    </ul>
  );
}
