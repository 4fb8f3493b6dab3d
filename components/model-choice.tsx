'use client';

import { useQuery } from '@tanstack/react-query';
import { InfoIcon } from 'lucide-react';
import { listModels, modelsKey } from './api';
import { Modal } from './modal';
import { Button } from './ui/button';
import { cn } from './ui/cn';
import { DialogClose, DialogFooter } from './ui/dialog';
import { focusRing } from './ui/focus-ring';

type ModelChoiceProps = {
  /** The model picked, or null for the server's default. */
  value: string | null;
  onChange: (model: string) => void;
};

/**
 * The model for a chat not stored yet (the home page's): a session's own picker changes the
 * stored session, this one only says what the first message will create it with.
 */
export function ModelChoice({ value, onChange }: ModelChoiceProps) {
  const models = useQuery({ queryKey: modelsKey, queryFn: listModels });
  if (!models.data) return null;
  const offered = models.data.models;
  const current = value ?? models.data.defaultId;
  const demo = offered.find((model) => model.id === current)?.demo ?? false;

  // The demo alone is no choice: its badge says what it is.
  if (offered.length === 1) return demo ? <DemoBadge /> : null;
  return (
    <div className="flex min-w-0 items-center gap-1">
      <select
        aria-label="Model"
        value={current}
        onChange={(event) => onChange(event.target.value)}
        className={cn(
          'h-8 max-w-full min-w-0 rounded-md border border-input bg-background px-2 text-sm',
          focusRing,
        )}
      >
        {offered.map((model) => (
          <option key={model.id} value={model.id}>
            {model.label}
          </option>
        ))}
      </select>
      {demo && <DemoBadge iconOnly />}
    </div>
  );
}

/**
 * "Demo (offline)", which opens how to configure a real model. Beside a picker that already
 * names the demo, only its info icon shows.
 */
export function DemoBadge({ iconOnly = false }: { iconOnly?: boolean }) {
  return (
    <Modal
      title="The offline demo model"
      description="Answers come from a small built-in model that needs no key and no network. It recognises requests for the shipped tools (try the suggestions) and otherwise explains itself."
      trigger={
        iconOnly ? (
          <Button variant="ghost" size="icon-sm" aria-label="About the demo model">
            <InfoIcon aria-hidden />
          </Button>
        ) : (
          <Button variant="secondary" size="sm" className="h-6 rounded-full px-2.5 text-xs">
            <InfoIcon aria-hidden />
            Demo (offline)
          </Button>
        )
      }
    >
      <div className="grid gap-2 text-sm">
        <p>To talk to a real model, set one of these and restart Quanta:</p>
        <ul className="list-disc pl-5 font-mono text-xs">
          <li>OPENAI_API_KEY</li>
          <li>ANTHROPIC_API_KEY</li>
          <li>GOOGLE_GENERATIVE_AI_API_KEY</li>
          <li>AI_GATEWAY_API_KEY</li>
          <li>OPENAI_COMPATIBLE_BASE_URL (Ollama, llama.cpp, vLLM, LM Studio)</li>
        </ul>
      </div>
      <DialogFooter>
        <DialogClose asChild>
          <Button type="button" variant="outline">
            Close
          </Button>
        </DialogClose>
      </DialogFooter>
    </Modal>
  );
}
