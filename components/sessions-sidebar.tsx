'use client';

import Link from 'next/link';

export function SessionsSidebar({ onNavigate }: { onNavigate?: () => void }) {
  return (
    <nav aria-label="Sessions" className="flex min-h-0 flex-1 flex-col gap-3 p-3">
      <div className="flex h-8 items-center px-1">
        <span className="font-semibold tracking-tight">Quanta</span>
      </div>
      <Link
        href="/"
        onClick={onNavigate}
        className="rounded-md border border-zinc-300 px-3 py-2 text-sm font-medium hover:bg-zinc-100 focus-visible:outline-2 focus-visible:outline-blue-500 dark:border-zinc-700 dark:hover:bg-zinc-800"
      >
        New chat
      </Link>
      <p className="px-1 text-sm text-zinc-500 dark:text-zinc-400">No conversations yet.</p>
    </nav>
  );
}
