import type { WidgetSchema } from './widget';

/**
 * Where a widget's state is kept: under its tool call, or — for a session-wide widget — under
 * the widget's id, so every button that opens it shows the same state.
 */
export function stateKey(definition: Pick<WidgetSchema, 'id' | 'scope'>, toolCallId: string) {
  return definition.scope === 'session' ? `session:${definition.id}` : toolCallId;
}
