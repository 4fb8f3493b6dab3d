// What the browser may import: the server's part of a widget (its actions) is `./actions`.
export type { WidgetCall } from './find-widget-call';
export { findWidgetCall } from './find-widget-call';
export { stateKey } from './state-key';
export type {
  ActionArgs,
  WidgetContainer,
  WidgetData,
  WidgetSchema,
  WidgetScope,
  WidgetViewProps,
} from './widget';
export { defineWidget } from './widget';
