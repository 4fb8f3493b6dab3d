import type { JSONSchema, ValueOf } from '../schema';

// What the browser and the server both know of a widget. Its actions are server code
// (`./actions`): a view reaches them only through their types.

/** Where a widget opens: a centred modal, a side drawer, or the whole screen. */
export type WidgetContainer = 'modal' | 'drawer' | 'fullscreen';

/**
 * Whose state a widget keeps: each tool call its own (`call`, the default), or one for the
 * whole session (`session`: every button of that widget opens the same board).
 */
export type WidgetScope = 'call' | 'session';

/** A widget's id, where it opens, whose state it keeps, and the JSON Schema of its data. */
export type WidgetSchema<Data extends JSONSchema = JSONSchema> = {
  id: string;
  /** Defaults to `modal`. */
  container?: WidgetContainer;
  /** Defaults to `call`. */
  scope?: WidgetScope;
  /** JSON Schema of the widget's `data`: its view, its tools and its actions are typed from it. */
  data: Data;
};

/** Declares a widget's schema, keeping its exact data schema so that its data is typed. */
export function defineWidget<const Data extends JSONSchema>(
  schema: WidgetSchema<Data>,
): WidgetSchema<Data> {
  return schema;
}

/** The type of a widget's data, from its schema. */
export type WidgetData<Widget extends { data: JSONSchema }> = ValueOf<Widget['data']>;

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
