'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ChevronDown } from 'lucide-react';
import { useState } from 'react';
import type { SessionView } from '@/lib/protocol';
import { listModels, modelsKey, refreshSessions, sessionApi } from '../api';
import { DemoBadge } from '../model-choice';
import { cn } from '../ui/cn';
import { focusRing } from '../ui/focus-ring';

/**
 * The session's model, named once. Its owner picks it when there is a choice; otherwise, and for
 * a reader, the name shows, or for the offline demo model its badge, which explains it and how
 * to configure a real one.
 */
export function ModelPicker({ session }: { session: SessionView }) {
  const queryClient = useQueryClient();
  const models = useQuery({ queryKey: modelsKey, queryFn: listModels });
  const [chosen, setChosen] = useState(session.model);
  const change = useMutation({
    mutationFn: (model: string) => sessionApi.update(session.id, { model }),
    onMutate: (model) => setChosen(model),
    onError: () => setChosen(session.model),
    onSuccess: () => void refreshSessions(queryClient),
  });
  if (!models.data) return null;
  const offered = models.data.models;
  const current = chosen ?? models.data.defaultId;
  const info = offered.find((model) => model.id === current);

  // One model is no choice, unless the session's own is no longer offered.
  if (!session.isOwner || (offered.length === 1 && info)) {
    return info?.demo ? (
      <DemoBadge />
    ) : (
      <span className="truncate text-sm text-muted-foreground">{info?.label ?? current}</span>
    );
  }
  return (
    <div className="flex min-w-0 flex-wrap items-center gap-1">
      <div className="relative min-w-0 max-w-full">
        <select
          aria-label="Model"
          value={current}
          // While a change is saved the picker keeps the focus, and waits.
          aria-disabled={change.isPending || undefined}
          onChange={(event) => {
            if (!change.isPending) change.mutate(event.target.value);
          }}
          // As wide as the chosen name, never cut short of the row it sits in.
          className={cn(
            'field-sizing-content h-8 max-w-full min-w-0 cursor-pointer appearance-none truncate rounded-md bg-transparent py-1 pr-7 pl-2 text-sm text-muted-foreground hover:bg-accent hover:text-accent-foreground',
            focusRing,
          )}
        >
          {!info && <option value={current}>{current} (not available)</option>}
          {offered.map((model) => (
            <option key={model.id} value={model.id}>
              {model.label}
            </option>
          ))}
        </select>
        <ChevronDown
          aria-hidden
          className="pointer-events-none absolute top-1/2 right-2 size-4 -translate-y-1/2 text-muted-foreground"
        />
      </div>
      {/* The picker already says "Demo (offline)": the badge only explains. */}
      {info?.demo && <DemoBadge iconOnly />}
      {change.error && (
        <span role="alert" className="text-xs text-destructive">
          {change.error.message}
        </span>
      )}
    </div>
  );
}
