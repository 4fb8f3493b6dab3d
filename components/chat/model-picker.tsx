'use client';

import { useMutation, useQuery } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import type { ModelList, SessionView } from '@/lib/protocol';
import { api, sessionApi } from '../api';
import { DialogTriggerButton } from '../dialog-trigger-button';
import { ModalClose, secondaryButton } from '../modal';

const modelsKey = ['models'] as const;

/**
 * The session's model: a picker for its owner, a label for a reader. The offline demo model
 * carries a badge that explains how to configure a real one.
 */
export function ModelPicker({ session }: { session: SessionView }) {
  const router = useRouter();
  const models = useQuery({ queryKey: modelsKey, queryFn: () => api<ModelList>('/api/models') });
  const [chosen, setChosen] = useState(session.model);
  const change = useMutation({
    mutationFn: (model: string) => sessionApi.update(session.id, { model }),
    onMutate: (model) => setChosen(model),
    onError: () => setChosen(session.model),
    onSuccess: () => router.refresh(),
  });
  if (!models.data) return null;
  const current = chosen ?? models.data.defaultId;
  const info = models.data.models.find((model) => model.id === current);

  return (
    <div className="flex min-w-0 items-center gap-2">
      {session.isOwner ? (
        <select
          aria-label="Model"
          value={current}
          disabled={change.isPending}
          onChange={(event) => change.mutate(event.target.value)}
          className="max-w-44 truncate rounded-md border border-zinc-300 bg-transparent px-2 py-1 text-sm focus-visible:outline-2 focus-visible:outline-blue-500 dark:border-zinc-700 dark:bg-zinc-900"
        >
          {!info && <option value={current}>{current} (not available)</option>}
          {models.data.models.map((model) => (
            <option key={model.id} value={model.id}>
              {model.label}
            </option>
          ))}
        </select>
      ) : (
        // A reader sees the model by name; the demo's badge already names it.
        !info?.demo && (
          <span className="truncate text-sm text-zinc-500 dark:text-zinc-400">
            {info?.label ?? current}
          </span>
        )
      )}
      {info?.demo && <DemoBadge />}
      {change.error && (
        <span role="alert" className="text-xs text-red-600">
          {change.error.message}
        </span>
      )}
    </div>
  );
}

function DemoBadge() {
  return (
    <DialogTriggerButton
      label="Demo (offline)"
      className="shrink-0 rounded-full bg-amber-100 px-2 py-0.5 text-xs font-medium text-amber-900 focus-visible:outline-2 focus-visible:outline-blue-500 dark:bg-amber-900/50 dark:text-amber-100"
      title="The offline demo model"
      description="Answers here come from a small built-in model that needs no key and no network. It recognises requests for the shipped tools (try “calculate 12 * (3 + 4)” or “show me a counter”) and otherwise explains itself."
    >
      <div className="flex flex-col gap-2 text-sm">
        <p>To talk to a real model, set one of these and restart Quanta:</p>
        <ul className="list-disc pl-5 font-mono text-xs">
          <li>OPENAI_API_KEY</li>
          <li>ANTHROPIC_API_KEY</li>
          <li>GOOGLE_GENERATIVE_AI_API_KEY</li>
          <li>AI_GATEWAY_API_KEY</li>
          <li>OPENAI_COMPATIBLE_BASE_URL (Ollama, llama.cpp, vLLM, LM Studio)</li>
        </ul>
        <div className="flex justify-end">
          <ModalClose className={secondaryButton}>Close</ModalClose>
        </div>
      </div>
    </DialogTriggerButton>
  );
}
