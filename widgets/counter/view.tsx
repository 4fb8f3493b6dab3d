'use client';

import type { WidgetData, WidgetViewProps } from '@/lib/widgets/definition';
import type { counter } from './definition';

export default function CounterView({ data }: WidgetViewProps<WidgetData<typeof counter>>) {
  if (data !== undefined && !Number.isInteger(data.count)) {
    throw new Error(`a counter needs a whole number, not ${JSON.stringify(data.count)}`);
  }
  return (
    <output
      aria-label="Count"
      className="block py-6 text-center text-5xl font-semibold tabular-nums"
    >
      {data?.count ?? 0}
    </output>
  );
}
