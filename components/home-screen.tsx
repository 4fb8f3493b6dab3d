'use client';

import { AppShell } from './app-shell';
import { Composer } from './composer';
import { EmptyState } from './empty-state';

export function HomeScreen({ token }: { token: string }) {
  return (
    <AppShell
      token={token}
      composer={<Composer onSend={() => {}} disabledReason="Chat arrives with the agent loop." />}
    >
      <EmptyState />
    </AppShell>
  );
}
