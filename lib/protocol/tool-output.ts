import type { JsonValue } from './json';

/**
 * A UI side effect of a tool call. The model never sees it: it is shown to the human only.
 * - `text`: a note in the transcript, no widget involved.
 * - `widget`: a button labelled `label` that opens the widget registered as `widget`, first
 *   painted from `data` (an opaque snapshot, optional).
 */
export type UiContent =
  | { kind: 'text'; text: string }
  | { kind: 'widget'; label: string; widget: string; data?: JsonValue };

/** A finished tool call. `modelText` is exactly what the model receives; `ui` never reaches it. */
export type ToolOutcome =
  | { isError: false; modelText: string; ui?: UiContent }
  | { isError: true; modelText: string };

/** A tool part's output as the UI receives and stores it; the model gets only `modelText`. */
export type ToolOutput = ToolOutcome & { durationMs: number };
