'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { type ApiTokenList, type CreatedApiToken, MAX_TOKEN_NAME } from '@/lib/protocol';
import { api } from './api';
import { CopyButton } from './copy-button';
import { DialogTriggerButton } from './dialog-trigger-button';
import { primaryButton, secondaryButton } from './modal';

const tokensKey = ['api-tokens'] as const;

const tokenApi = {
  list: () => api<ApiTokenList>('/api/tokens'),
  create: (name: string) => api<CreatedApiToken>('/api/tokens', { method: 'POST', body: { name } }),
  revoke: (id: string) => api<void>(`/api/tokens/${id}`, { method: 'DELETE' }),
  rotate: () => api<void>('/api/identity/rotate', { method: 'POST' }),
};

/** The sidebar's button to the owner's API tokens and this browser's key. */
export function TokenButton() {
  return (
    <DialogTriggerButton
      label="API tokens"
      className={`${secondaryButton} text-left`}
      title="API tokens"
      description="A script sends a token as “Authorization: Bearer <token>” to act as you: anyone holding one can read and change your sessions."
    >
      <TokenManager />
    </DialogTriggerButton>
  );
}

const inputClass =
  'min-w-0 flex-1 rounded-md border border-zinc-300 bg-transparent px-2 py-1.5 text-base focus-visible:outline-2 focus-visible:outline-blue-500 dark:border-zinc-700';

// Mounted only while the dialog is open: a new token is gone from the page once it closes.
function TokenManager() {
  const queryClient = useQueryClient();
  const tokens = useQuery({ queryKey: tokensKey, queryFn: tokenApi.list });
  const refresh = () => queryClient.invalidateQueries({ queryKey: tokensKey });
  const [name, setName] = useState('');
  const nameId = useId();
  const create = useMutation({
    mutationFn: tokenApi.create,
    onSuccess: () => {
      setName('');
      void refresh();
    },
  });
  const revoke = useMutation({ mutationFn: tokenApi.revoke, onSuccess: () => void refresh() });
  const rotate = useMutation({ mutationFn: tokenApi.rotate });

  function submit(event: FormEvent) {
    event.preventDefault();
    if (name.trim()) create.mutate(name.trim());
  }

  return (
    <div className="flex flex-col gap-4 text-sm">
      {tokens.isPending && <p className="text-zinc-500">Loading…</p>}
      {tokens.error && (
        <p role="alert" className="text-red-600">
          Could not load your tokens: {tokens.error.message}
        </p>
      )}
      {tokens.data?.tokens.length === 0 && (
        <p className="text-zinc-500 dark:text-zinc-400">No tokens yet.</p>
      )}
      {tokens.data && tokens.data.tokens.length > 0 && (
        <ul aria-label="Your tokens" className="flex max-h-48 flex-col gap-2 overflow-y-auto">
          {tokens.data.tokens.map((token) => (
            <li key={token.id} className="flex items-center gap-2">
              <div className="min-w-0 flex-1">
                <p className="truncate font-medium">{token.name}</p>
                <p className="text-xs text-zinc-500 dark:text-zinc-400">
                  Created {when(token.createdAt)} · last used{' '}
                  {token.lastUsedAt ? when(token.lastUsedAt) : 'never'}
                </p>
              </div>
              <button
                type="button"
                aria-label={`Revoke ${token.name}`}
                className={secondaryButton}
                disabled={revoke.isPending && revoke.variables === token.id}
                onClick={() => revoke.mutate(token.id)}
              >
                Revoke
              </button>
            </li>
          ))}
        </ul>
      )}
      {revoke.error && (
        <p role="alert" className="text-red-600">
          {revoke.error.message}
        </p>
      )}

      <form onSubmit={submit} className="flex flex-col gap-1">
        <label htmlFor={nameId}>New token’s name</label>
        <div className="flex gap-2">
          <input
            id={nameId}
            value={name}
            maxLength={MAX_TOKEN_NAME}
            placeholder="e.g. backup script"
            onChange={(event) => setName(event.target.value)}
            className={inputClass}
          />
          <button
            type="submit"
            className={primaryButton}
            disabled={!name.trim() || create.isPending}
          >
            Create
          </button>
        </div>
      </form>
      {create.error && (
        <p role="alert" className="text-red-600">
          {create.error.message}
        </p>
      )}
      {create.data && (
        <div className="flex flex-col gap-2">
          <p role="status">
            Token “{create.data.token.name}” — copy it now, it will not be shown again:
          </p>
          <code className="block rounded-md bg-zinc-100 p-2 text-xs break-all dark:bg-zinc-800">
            {create.data.bearer}
          </code>
          <div className="flex justify-end">
            <CopyButton text={create.data.bearer} label="Copy token" />
          </div>
        </div>
      )}

      <div className="flex flex-col gap-2 border-t border-zinc-200 pt-4 dark:border-zinc-800">
        <p className="text-zinc-600 dark:text-zinc-400">
          Rotating gives this browser a new key and makes every copy of the old one stop working;
          your sessions and tokens stay.
        </p>
        <div>
          <button
            type="button"
            className={secondaryButton}
            disabled={rotate.isPending}
            onClick={() => rotate.mutate()}
          >
            Rotate this browser’s key
          </button>
        </div>
        {rotate.isSuccess && <p role="status">Done: this browser has a new key.</p>}
        {rotate.error && (
          <p role="alert" className="text-red-600">
            {rotate.error.message}
          </p>
        )}
      </div>
    </div>
  );
}

function when(iso: string): string {
  return new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}
