import type { JSONSchema, ObjectSchema, ValueOf } from '../schema';

/** Where a widget opens: a centred modal, a side drawer, or the whole screen. */
export type WidgetContainer = 'modal' | 'drawer' | 'fullscreen';

/**
 * Whose state a widget keeps: each tool call its own (`call`, the default), or one for the
 * whole session (`session`: every button of that widget opens the same board).
 */
export type WidgetScope = 'call' | 'session';

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
 * A widget as the server knows it: paired with a tool through the tool's `widget` field, so
 * the list of widgets is derived from the tool set (the seed's `list_widgets/0`).
 */
export type WidgetDefinition = {
  id: string;
  /** Defaults to `modal`. */
  container?: WidgetContainer;
  /** Defaults to `call`. */
  scope?: WidgetScope;
  /** JSON Schema of the widget's `data`: its view, its tools and its actions are typed from it. */
  data: JSONSchema;
  actions?: Record<string, WidgetAction>;
};

/** The type of a widget's data, from its schema. */
export type WidgetData<Widget extends { data: JSONSchema }> = ValueOf<Widget['data']>;

/** Builds one action, its `args` typed from its own `parameters`, its data from the widget's. */
export type ActionBuilder<Data> = <const Parameters extends ObjectSchema>(action: {
  parameters: Parameters;
  handle(
    ctx: ActionContext,
    args: NoInfer<ValueOf<Parameters>>,
    data: Data,
  ): ActionResult<Data> | Promise<ActionResult<Data>>;
}) => WidgetAction;

/** A widget that keeps its exact data schema type. */
export type DefinedWidget<Schema extends JSONSchema> = Omit<WidgetDefinition, 'data'> & {
  data: Schema;
};

/**
 * Defines a widget, its data typed from its schema. Actions are declared through a builder so
 * that each one's `args` are typed from its parameters and its `data` from the widget's schema:
 * `actions: (action) => ({ reset: action({ parameters, handle }) })`. (`defineTool` compiles
 * the schemas at start-up; this file stays light: the browser's widget registry imports it.)
 */
export function defineWidget<const Schema extends JSONSchema>(
  definition: Omit<WidgetDefinition, 'data' | 'actions'> & {
    data: Schema;
    actions?: (action: ActionBuilder<NoInfer<ValueOf<Schema>>>) => Record<string, WidgetAction>;
  },
): DefinedWidget<Schema> {
  const { actions, ...rest } = definition;
  // The builder only types each action; at run time an action is what it was given.
  return actions ? { ...rest, actions: actions((action) => action as WidgetAction) } : rest;
}

/** What a widget's view receives. */
export type WidgetViewProps<Data> = {
  /** The latest data: the tool's snapshot first, then what actions made of it. */
  data: Data | undefined;
  /** A reader's view: actions are disabled. */
  readOnly: boolean;
  /**
   * Runs an action on the server; resolves true once the new data is shown, false when it
   * failed (the container shows why). Never rejects.
   */
  act(action: string, args?: Record<string, unknown>): Promise<boolean>;
  /** True while an action runs: a view disables its controls. */
  pending: boolean;
  /** Starts a new turn with this message, as the owner (for example with what was chosen). */
  sendMessage(text: string): void;
};
