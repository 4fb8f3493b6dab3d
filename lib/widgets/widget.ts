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

/**
 * A widget's id, its title, where it opens, whose state it keeps, and the JSON Schema of its
 * data.
 */
export type WidgetSchema<Data extends JSONSchema = JSONSchema> = {
  id: string;
  /** Its container's title: what the widget is ("Counter"), not the label of the button. */
  title: string;
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

/**
 * The arguments of each of a widget's actions, by name, read from the `handle` of each: a view
 * gets them from the type of its widget's actions module.
 */
export type ActionArgs<Widget> = Widget extends { actions: infer Actions }
  ? {
      [Name in keyof Actions & string]: Actions[Name] extends {
        handle(ctx: never, args: infer Args, data: never): unknown;
      }
        ? Args
        : never;
    }
  : Record<never, never>;

/** An action's arguments may be left out when it takes none that are required. */
type ArgsParameter<Args> = Record<never, never> extends Args ? [args?: Args] : [args: Args];

/**
 * What a widget's view receives, typed from its widget as the server defines it (schema and
 * actions): `WidgetViewProps<typeof counter>`, through a type-only import of its actions module.
 */
export type WidgetViewProps<Widget extends { data: JSONSchema }> = {
  /** The latest data: the tool's snapshot first, then what actions made of it. */
  data: WidgetData<Widget> | undefined;
  /** A reader's view: actions are disabled. */
  readOnly: boolean;
  /**
   * Runs an action on the server; resolves true once the new data is shown, false when it
   * failed (the container shows why). Never rejects.
   */
  act<Name extends keyof ActionArgs<Widget> & string>(
    action: Name,
    ...args: ArgsParameter<ActionArgs<Widget>[Name]>
  ): Promise<boolean>;
  /**
   * True while an action runs: a view marks its controls pending (components/ui's Button
   * `pending`: aria-disabled, so the one pressed keeps focus), not disabled.
   */
  pending: boolean;
  /** Starts a new turn with this message, as the owner (for example with what was chosen). */
  sendMessage(text: string): void;
};
