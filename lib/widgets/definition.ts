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
};

/** What a widget's view receives: its data (as the tool left it) and whether it may act. */
export type WidgetViewProps<Data> = {
  /** Absent when the tool gave none. */
  data: Data | undefined;
  readOnly: boolean;
};
