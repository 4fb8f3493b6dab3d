import { type ComponentType, type LazyExoticComponent, lazy } from 'react';
import type { WidgetSchema, WidgetViewProps } from '@/lib/widgets';
import { chartSchema } from './chart/schema';
import { counterSchema } from './counter/schema';
import { tableSchema } from './table/schema';
import { tasksSchema } from './tasks/schema';

// The browser's widgets: each one's schema and view, never its actions (server code, which a
// view knows only by their types).

export type WidgetEntry = {
  schema: WidgetSchema;
  // Each view types its own data and actions; the registry hands over whatever the tool stored.
  // biome-ignore lint/suspicious/noExplicitAny: the registry is the one untyped seam.
  View: LazyExoticComponent<ComponentType<WidgetViewProps<any>>>;
};

/** Widget id → its schema and its view, loaded only when first opened. */
const entries: WidgetEntry[] = [
  { schema: counterSchema, View: lazy(() => import('./counter/view')) },
  { schema: chartSchema, View: lazy(() => import('./chart/view')) },
  { schema: tableSchema, View: lazy(() => import('./table/view')) },
  { schema: tasksSchema, View: lazy(() => import('./tasks/view')) },
];

const byId = new Map(entries.map((entry) => [entry.schema.id, entry]));

export function findWidget(id: string): WidgetEntry | undefined {
  return byId.get(id);
}

export const registeredWidgetIds: readonly string[] = [...byId.keys()];
