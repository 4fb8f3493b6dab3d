export type {
  ActionContext,
  ActionResult,
  WidgetAction,
  WidgetContainer,
  WidgetData,
  WidgetDefinition,
  WidgetScope,
  WidgetViewProps,
} from './definition';
export { accept, defineWidget, reject } from './definition';
export type { WidgetCall } from './find-widget-call';
export { findWidgetCall } from './find-widget-call';
export { stateKey } from './state-key';
