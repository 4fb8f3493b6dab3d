'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ChevronDown } from 'lucide-react';
import { useState } from 'react';
import type { ModelList, SessionView } from '@/lib/protocol';
import { api, refreshSessions, sessionApi } from '../api';
import { DialogTriggerButton } from '../dialog-trigger-button';
import { badgeVariants } from '../ui/badge';
import { Button } from '../ui/button';
import { cn } from '../ui/cn';
import { DialogClose } from '../ui/dialog';
import { focusRing } from '../ui/focus-ring';

const modelsKey = ['models'] as const;

/**
 * The session's model, named once: a picker for its owner, a label for a reader. The offline
 * demo model comes with a badge that explains it and how to configure a real one.
 */
export function ModelPicker({ session }: { session: SessionView }) {
  const queryClient = useQueryClient();
  const models = useQuery({ queryKey: modelsKey, queryFn: () => api<ModelList>('/api/models') });
  const [chosen, setChosen] = useState(session.model);
  const change = useMutation({
    mutationFn: (model: string) => sessionApi.update(session.id, { model }),
    onMutate: (model) => setChosen(model),
    onError: () => setChosen(session.model),
    onSuccess: () => void refreshSessions(queryClient),
  });
  if (!models.data) return null;
  const current = chosen ?? models.data.defaultId;
  const info = models.data.models.find((model) => model.id === current);

  return (
    <div className="flex min-w-0 flex-wrap items-center gap-1.5">
      {session.isOwner ? (
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
            {models.data.models.map((model) => (
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
      ) : (
        // A reader sees the model by name; the demo's badge names it.
        !info?.demo && (
          <span className="truncate text-sm text-muted-foreground">{info?.label ?? current}</span>
        )
      )}
      {/* The owner's picker already says "Demo (offline)": the badge then only explains. */}
      {info?.demo && <DemoBadge label={session.isOwner ? 'About the demo' : info.label} />}
      {change.error && (
        <span role="alert" className="text-xs text-destructive">
          {change.error.message}
        </span>
      )}
    </div>
  );
}

function DemoBadge({ label }: { label: string }) {
  return (
    <DialogTriggerButton
      label={label}
      className={cn(
        badgeVariants({ variant: 'secondary' }),
        'cursor-pointer hover:bg-accent',
        focusRing,
      )}
      title="The offline demo model"
      description="Answers here come from a small built-in model that needs no key and no network. It recognises requests for the shipped tools (try “calculate 12 * (3 + 4)” or “show me a counter”) and otherwise explains itself."
    >
      <div className="flex flex-col gap-3 text-sm">
        <p>To talk to a real model, set one of these and restart Quanta:</p>
        <ul className="list-disc pl-5 font-mono text-xs">
          <li>OPENAI_API_KEY</li>
          <li>ANTHROPIC_API_KEY</li>
          <li>GOOGLE_GENERATIVE_AI_API_KEY</li>
          <li>AI_GATEWAY_API_KEY</li>
          <li>OPENAI_COMPATIBLE_BASE_URL (Ollama, llama.cpp, vLLM, LM Studio)</li>
        </ul>
        <div className="flex justify-end">
          <DialogClose asChild>
            <Button variant="outline">Got it</Button>
          </DialogClose>
        </div>
      </div>
    </DialogTriggerButton>
  );
}
