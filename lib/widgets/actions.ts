import type { JSONSchema, ObjectSchema, ValueOf } from '../schema';
import type { WidgetSchema } from './widget';

// A widget's actions: server code. The browser's widget registry never imports this module or
// a widget's own `actions.ts`; a view takes only their types.

/** Who acts, on what: given to an action's `handle` on the server. */
export type ActionContext = { sessionId: string; toolCallId: string; ownerId: string };

/** What an action returns (the seed's `handle_action`): the widget's new data, or why not. */
export type ActionResult<Data = unknown> =
  | { status: 'ok'; data: Data }
  | { status: 'error'; reason: string };

export function accept<Data>(data: Data): ActionResult<Data> {
  return { status: 'ok', data };
}

export function reject(reason: string): ActionResult<never> {
  return { status: 'error', reason };
}

/**
 * A human's action on a widget: it runs on the server, never through the model. Its `args` are
 * validated against `parameters` (the same path as tool arguments) before `handle` runs.
 */
export type WidgetAction<Data = unknown, Args = unknown> = {
  parameters: ObjectSchema;
  // Method syntax on purpose: an action typed for its own data stands where any action is expected.
  handle(
    ctx: ActionContext,
    args: Args,
    data: Data,
  ): ActionResult<Data> | Promise<ActionResult<Data>>;
};

/**
 * A widget as the server knows it: its schema and its actions. Paired with a tool through the
 * tool's `widget` field, so the list of widgets is derived from the tool set (the seed's
 * `list_widgets/0`). A widget without actions is its schema alone.
 */
export type WidgetDefinition = WidgetSchema & { actions?: Record<string, WidgetAction> };

/** Builds one action, its `args` typed from its own `parameters`, its data from the widget's. */
export type ActionBuilder<Data> = <const Parameters extends ObjectSchema>(action: {
  parameters: Parameters;
  handle(
    ctx: ActionContext,
    args: NoInfer<ValueOf<Parameters>>,
    data: Data,
  ): ActionResult<Data> | Promise<ActionResult<Data>>;
}) => WidgetAction<Data, NoInfer<ValueOf<Parameters>>>;

/**
 * A widget's schema with its actions. Actions are declared through a builder so that each one's
 * `args` are typed from its parameters and its `data` from the widget's schema:
 * `withActions(schema, (action) => ({ reset: action({ parameters, handle }) }))`. The result
 * keeps each action's types, which its view's `act` is typed from.
 */
export function withActions<
  const Data extends JSONSchema,
  Actions extends Record<string, WidgetAction>,
>(
  schema: WidgetSchema<Data>,
  actions: (action: ActionBuilder<NoInfer<ValueOf<Data>>>) => Actions,
): WidgetSchema<Data> & { actions: Actions } {
  // The builder only types each action; at run time an action is what it was given.
  return { ...schema, actions: actions((action) => action) };
}
