'use client';

import type { WidgetViewProps } from '@/lib/widgets';
import type { counter } from './actions';

const button =
  'min-w-12 rounded-md border border-zinc-300 px-3 py-2 text-lg font-medium hover:bg-zinc-100 focus-visible:outline-2 focus-visible:outline-blue-500 disabled:opacity-40 dark:border-zinc-700 dark:hover:bg-zinc-800';

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
  const disabled = readOnly || pending;
  return (
    <div className="flex flex-col items-center gap-4 py-2">
      <output aria-label="Count" aria-live="polite" className="text-5xl font-semibold tabular-nums">
        {count}
      </output>
      <div className="flex gap-2">
        <button
          type="button"
          aria-label="Decrement"
          className={button}
          disabled={disabled}
          onClick={() => act('decrement')}
        >
          −
        </button>
        <button
          type="button"
          aria-label="Increment"
          className={button}
          disabled={disabled}
          onClick={() => act('increment')}
        >
          +
        </button>
        <button type="button" className={button} disabled={disabled} onClick={() => act('reset')}>
          Reset
        </button>
      </div>
      {!readOnly && (
        <button
          type="button"
          className="text-sm text-blue-700 underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-blue-500 dark:text-blue-300"
          onClick={() => sendMessage(`The counter is at ${count}: what is ${count} * ${count}?`)}
        >
          Ask the agent about {count}
        </button>
      )}
    </div>
  );
}
