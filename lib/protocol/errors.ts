/**
 * The body of every error answer. `code` is stable, `message` is for people; `current` is the
 * server's state when a change was refused as stale (a widget action's WidgetState).
 */
export type ApiErrorBody = { error: { code: string; message: string; current?: unknown } };
