// What a tool may reach beyond its arguments, each bound to the session it runs in. The turn
// builds them (lib/sessions/tool-services.ts); a test gives in-memory ones. Types only: tools
// never see the database or the event bus behind them.

import type { WidgetDefinition } from '../widgets/actions';

/** The session's notes (save_note). */
export type SessionNotes = {
  /** Keeps `text` as the session's newest note. */
  add(text: string): Promise<void>;
  /** How many notes the session has. */
  count(): Promise<number>;
};

/** What a change makes of a widget's data: the new data, or why it refuses. */
export type WidgetChange<Data> = { data: Data } | { error: string };

/** The session's session-scoped widgets (the task board), as the model's tools reach them. */
export type SessionWidgets = {
  /** The widget's stored data, or `empty` while it has none. */
  read<Data>(widget: WidgetDefinition, empty: Data): Promise<Data>;
  /**
   * Applies `change` to the widget's data (`empty` while it has none), stores the result and
   * announces it to every viewer. When a human changed the data meanwhile, `change` is applied
   * again to theirs. Answers the stored data, or the change's refusal.
   */
  change<Data>(
    widget: WidgetDefinition,
    empty: Data,
    change: (data: Data) => WidgetChange<Data>,
  ): Promise<WidgetChange<Data>>;
};

/** The services every tool call of a session receives in its context. */
export type ToolServices = { notes: SessionNotes; widgets: SessionWidgets };
