'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { usePathname, useRouter } from 'next/navigation';
import { useState } from 'react';
import { MAX_TITLE, type SessionView } from '@/lib/protocol';
import { refreshSessions, sessionApi, sessionsKey } from './api';
import { ConfirmDialog } from './confirm-dialog';
import { secondaryButton } from './modal';
import { TokenButton } from './token-button';

export function SessionsSidebar({ onNavigate }: { onNavigate?: () => void }) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const sessions = useQuery({ queryKey: sessionsKey, queryFn: sessionApi.list });
  const create = useMutation({
    mutationFn: sessionApi.create,
    onSuccess: ({ session }) => {
      void refreshSessions(queryClient);
      onNavigate?.();
      router.push(`/c/${session.id}`);
    },
  });

  return (
    <nav aria-label="Sessions" className="flex min-h-0 flex-1 flex-col gap-3 p-3">
      <div className="flex h-8 items-center px-1">
        <Link href="/" onClick={onNavigate} className="font-semibold tracking-tight">
          Quanta
        </Link>
      </div>
      <button
        type="button"
        onClick={() => create.mutate()}
        disabled={create.isPending}
        className={`${secondaryButton} text-left`}
      >
        {create.isPending ? 'Creating…' : 'New chat'}
      </button>
      {create.error && (
        <p role="alert" className="text-sm text-red-600">
          {create.error.message}
        </p>
      )}
      <div className="min-h-0 flex-1 overflow-y-auto">
        {sessions.isPending && <p className="px-1 text-sm text-zinc-500">Loading…</p>}
        {sessions.error && (
          <p role="alert" className="px-1 text-sm text-red-600">
            Could not load your sessions: {sessions.error.message}
          </p>
        )}
        {sessions.data?.sessions.length === 0 && (
          <p className="px-1 text-sm text-zinc-500 dark:text-zinc-400">No conversations yet.</p>
        )}
        <ul className="flex flex-col gap-0.5">
          {sessions.data?.sessions.map((session) => (
            <SessionItem key={session.id} session={session} onNavigate={onNavigate} />
          ))}
        </ul>
      </div>
      <TokenButton />
    </nav>
  );
}

function SessionItem({ session, onNavigate }: { session: SessionView; onNavigate?: () => void }) {
  const pathname = usePathname();
  const router = useRouter();
  const queryClient = useQueryClient();
  const [dialog, setDialog] = useState<'rename' | 'delete' | null>(null);
  const [title, setTitle] = useState(session.title);
  const href = `/c/${session.id}`;
  const current = pathname === href;

  const done = () => {
    setDialog(null);
    void refreshSessions(queryClient);
    router.refresh();
  };
  const rename = useMutation({
    mutationFn: () => sessionApi.update(session.id, { title: title.trim() }),
    onSuccess: done,
  });
  const remove = useMutation({
    mutationFn: () => sessionApi.remove(session.id),
    onSuccess: () => {
      done();
      if (current) router.push('/');
    },
  });

  return (
    <li className="group flex items-center rounded-md hover:bg-zinc-200/60 dark:hover:bg-zinc-800">
      <Link
        href={href}
        onClick={onNavigate}
        aria-current={current ? 'page' : undefined}
        className="min-w-0 flex-1 truncate px-2 py-1.5 text-sm focus-visible:outline-2 focus-visible:outline-blue-500 aria-[current=page]:font-semibold"
      >
        {session.title}
      </Link>
      <button
        type="button"
        aria-label={`Rename ${session.title}`}
        onClick={() => {
          setTitle(session.title);
          setDialog('rename');
        }}
        className="rounded p-1 text-xs text-zinc-500 hover:text-zinc-900 focus-visible:outline-2 focus-visible:outline-blue-500 dark:hover:text-zinc-100"
      >
        Rename
      </button>
      <button
        type="button"
        aria-label={`Delete ${session.title}`}
        onClick={() => setDialog('delete')}
        className="rounded p-1 text-xs text-zinc-500 hover:text-red-600 focus-visible:outline-2 focus-visible:outline-blue-500"
      >
        Delete
      </button>

      <ConfirmDialog
        open={dialog === 'rename'}
        onOpenChange={(open) => setDialog(open ? 'rename' : null)}
        title="Rename session"
        confirmLabel="Save"
        tone="primary"
        disabled={!title.trim() || rename.isPending}
        error={rename.error}
        onConfirm={() => rename.mutate()}
      >
        <label className="flex flex-col gap-1 text-sm">
          Title
          <input
            value={title}
            maxLength={MAX_TITLE}
            onChange={(event) => setTitle(event.target.value)}
            className="rounded-md border border-zinc-300 bg-transparent px-2 py-1.5 text-base focus-visible:outline-2 focus-visible:outline-blue-500 dark:border-zinc-700"
          />
        </label>
      </ConfirmDialog>

      <ConfirmDialog
        open={dialog === 'delete'}
        onOpenChange={(open) => setDialog(open ? 'delete' : null)}
        title="Delete session?"
        description={`“${session.title}” and its messages will be gone for good, also for anyone you shared it with.`}
        confirmLabel="Delete"
        tone="danger"
        disabled={remove.isPending}
        error={remove.error}
        onConfirm={() => remove.mutate()}
      />
    </li>
  );
}
