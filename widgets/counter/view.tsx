'use client';

import { MinusIcon, PlusIcon, RotateCcwIcon } from 'lucide-react';
import { Button } from '@/components/ui/button';
import type { WidgetViewProps } from '@/lib/widgets';
import type { counter } from './actions';

export default function CounterView({
  data,
  readOnly,
  pending,
  act,
  sendMessage,
}: WidgetViewProps<typeof counter>) {
  if (data !== undefined && !Number.isInteger(data.count)) {
    throw new Error(`a counter needs a whole number, not ${JSON.stringify(data.count)}`);
  }
  const count = data?.count ?? 0;
  // A reader cannot act: disabled. While an action runs the buttons are only pending, so the
  // one pressed keeps focus and a second press is visibly ignored rather than lost.
  const control = { variant: 'outline', disabled: readOnly, pending } as const;
  return (
    <div className="flex flex-col items-center gap-4 py-2">
      <output aria-label="Count" aria-live="polite" className="text-5xl font-semibold tabular-nums">
        {count}
      </output>
      <div className="flex gap-2">
        <Button {...control} size="icon" aria-label="Decrement" onClick={() => act('decrement')}>
          <MinusIcon aria-hidden />
        </Button>
        <Button {...control} size="icon" aria-label="Increment" onClick={() => act('increment')}>
          <PlusIcon aria-hidden />
        </Button>
        <Button {...control} onClick={() => act('reset')}>
          <RotateCcwIcon aria-hidden />
          Reset
        </Button>
      </div>
      {!readOnly && (
        <Button
          variant="link"
          size="sm"
          onClick={() => sendMessage(`The counter is at ${count}: what is ${count} * ${count}?`)}
        >
          Ask the agent about {count}
        </Button>
      )}
    </div>
  );
}
