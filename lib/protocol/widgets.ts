/**
 * A widget's latest data and the version an action must name to change it (0: never changed).
 * Also the answer of `POST /api/sessions/:id/widgets/:toolCallId/actions`.
 */
export type WidgetState = { data: unknown; version: number };
