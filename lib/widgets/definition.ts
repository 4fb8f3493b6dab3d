import type { FromSchema, JSONSchema } from 'json-schema-to-ts';

/** Where a widget opens: a centred modal, a side drawer, or the whole screen. */
export type WidgetContainer = 'modal' | 'drawer' | 'fullscreen';

/**
 * A widget as the server knows it: paired with a tool through the tool's `widget` field, so
 * the list of widgets is derived from the tool set (the seed's `list_widgets/0`).
 */
export type WidgetDefinition = {
  id: string;
  /** Defaults to `modal`. */
  container?: WidgetContainer;
  /** JSON Schema of the widget's `data`: its view and its tools are typed from it. */
  data: JSONSchema;
};

/** A widget that keeps its exact data schema type. */
export type DefinedWidget<Schema extends JSONSchema> = Omit<WidgetDefinition, 'data'> & {
  data: Schema;
};

/**
 * The type of a widget's data, from its schema. A schema only known as "some schema" gives
 * `unknown`: expanding FromSchema over the whole JSON Schema type is too deep for tsc.
 */
export type WidgetData<Widget extends { data: JSONSchema }> = JSONSchema extends Widget['data']
  ? unknown
  : FromSchema<Widget['data']>;

/** What a widget's view receives: its data (as the tool left it) and whether it may act. */
export type WidgetViewProps<Data> = {
  /** Absent when the tool gave none. */
  data: Data | undefined;
  readOnly: boolean;
};

/**
 * Defines a widget, keeping its schema's exact type. (`defineTool` compiles the schema at
 * start-up; this file stays light because the browser's widget registry imports it too.)
 */
export function defineWidget<const Schema extends JSONSchema>(
  definition: DefinedWidget<Schema>,
): DefinedWidget<Schema> {
  return definition;
}
