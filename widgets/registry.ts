import { type ComponentType, type LazyExoticComponent, lazy } from 'react';
import type { WidgetDefinition, WidgetViewProps } from '@/lib/widgets';
import { chart } from './chart/definition';
import { counter } from './counter/definition';
import { table } from './table/definition';
import { tasks } from './tasks/definition';

export type WidgetEntry = {
  definition: WidgetDefinition;
  // Each view types its own data; the registry hands over whatever the tool stored.
  // biome-ignore lint/suspicious/noExplicitAny: the registry is the one untyped seam.
  View: LazyExoticComponent<ComponentType<WidgetViewProps<any>>>;
};

/** Widget id → its definition and its view, loaded only when first opened. */
const entries: WidgetEntry[] = [
  { definition: counter, View: lazy(() => import('./counter/view')) },
  { definition: chart, View: lazy(() => import('./chart/view')) },
  { definition: table, View: lazy(() => import('./table/view')) },
  { definition: tasks, View: lazy(() => import('./tasks/view')) },
];

const byId = new Map(entries.map((entry) => [entry.definition.id, entry]));

export function findWidget(id: string): WidgetEntry | undefined {
  return byId.get(id);
}

export const registeredWidgetIds: readonly string[] = [...byId.keys()];
