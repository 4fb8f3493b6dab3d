import type { WidgetDefinition } from '@/lib/widgets/definition';

/** A number the reader can count with: opened by `show_counter`. */
export const counter: WidgetDefinition = { id: 'counter', container: 'modal' };

export type CounterData = { count: number };
