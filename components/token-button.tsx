'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { KeyRoundIcon } from 'lucide-react';
import { type FormEvent, useId, useState } from 'react';
import { type ApiTokenList, type CreatedApiToken, MAX_TOKEN_NAME } from '@/lib/protocol';
import { api } from './api';
import { CopyButton } from './copy-button';
import { ErrorAlert } from './error-alert';
import { Modal } from './modal';
import { Button } from './ui/button';
import { Input } from './ui/input';

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
    <Modal
      title="API tokens"
      description="A script sends a token as “Authorization: Bearer <token>” to act as you: anyone holding one can read and change your sessions."
      trigger={
        <Button variant="ghost" className="w-full justify-start">
          <KeyRoundIcon aria-hidden />
          API tokens
        </Button>
      }
    >
      <TokenManager />
    </Modal>
  );
}

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
    <div className="grid gap-4 text-sm">
      {tokens.isPending && <p className="text-muted-foreground">Loading…</p>}
      {tokens.error && <ErrorAlert>Could not load your tokens: {tokens.error.message}</ErrorAlert>}
      {tokens.data?.tokens.length === 0 && <p className="text-muted-foreground">No tokens yet.</p>}
      {tokens.data && tokens.data.tokens.length > 0 && (
        <ul aria-label="Your tokens" className="flex max-h-48 flex-col gap-2 overflow-y-auto">
          {tokens.data.tokens.map((token) => (
            <li key={token.id} className="flex items-center gap-2">
              <div className="min-w-0 flex-1">
                <p className="truncate font-medium">{token.name}</p>
                <p className="text-xs text-muted-foreground">
                  Created {when(token.createdAt)} · last used{' '}
                  {token.lastUsedAt ? when(token.lastUsedAt) : 'never'}
                </p>
              </div>
              <Button
                variant="outline"
                size="sm"
                aria-label={`Revoke ${token.name}`}
                pending={revoke.isPending && revoke.variables === token.id}
                onClick={() => revoke.mutate(token.id)}
              >
                Revoke
              </Button>
            </li>
          ))}
        </ul>
      )}
      {revoke.error && <ErrorAlert>{revoke.error.message}</ErrorAlert>}

      <form onSubmit={submit} className="grid gap-1.5">
        <label htmlFor={nameId} className="font-medium">
          New token’s name
        </label>
        <div className="flex gap-2">
          <Input
            id={nameId}
            value={name}
            maxLength={MAX_TOKEN_NAME}
            placeholder="e.g. backup script"
            onChange={(event) => setName(event.target.value)}
          />
          <Button type="submit" disabled={!name.trim()} pending={create.isPending}>
            Create
          </Button>
        </div>
      </form>
      {create.error && <ErrorAlert>{create.error.message}</ErrorAlert>}
      {create.data && (
        <div className="grid gap-2">
          <p role="status">
            Token “{create.data.token.name}” — copy it now, it will not be shown again:
          </p>
          <code className="block rounded-md bg-muted p-2 font-mono text-xs break-all">
            {create.data.bearer}
          </code>
          <div className="flex justify-end">
            <CopyButton text={create.data.bearer} label="Copy token" copiedMessage="Token copied" />
          </div>
        </div>
      )}

      <div className="grid gap-2 border-t pt-4">
        <p className="text-muted-foreground">
          Rotating gives this browser a new key and makes every copy of the old one stop working;
          your sessions and tokens stay.
        </p>
        <div>
          <Button
            variant="outline"
            size="sm"
            pending={rotate.isPending}
            onClick={() => rotate.mutate()}
          >
            Rotate this browser’s key
          </Button>
        </div>
        {rotate.isSuccess && <p role="status">Done: this browser has a new key.</p>}
        {rotate.error && <ErrorAlert>{rotate.error.message}</ErrorAlert>}
      </div>
    </div>
  );
}

function when(iso: string): string {
  return new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}
