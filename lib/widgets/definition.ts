/**
 * A widget as the server knows it: paired with a tool through the tool's `widget` field, so
 * the list of widgets is derived from the tool set (the seed's `list_widgets/0`).
 */
export type WidgetDefinition = {
  id: string;
};
