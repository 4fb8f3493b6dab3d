import type { JsonValue, UiContent } from '../protocol';

/**
 * What a tool's `execute` returns: `ok(result)`, `ok(result, ui)` or `err(reason)`.
 * `result` is text for the model; bytes are accepted so that a tool can hand over whatever it
 * read, and are described instead of sent when they are not UTF-8 text.
 */
export type ToolResult =
  | { status: 'ok'; result: string | Uint8Array; ui?: UiContent }
  | { status: 'error'; reason: string };

export function ok(result: string | Uint8Array, ui?: UiContent): ToolResult {
  return ui === undefined ? { status: 'ok', result } : { status: 'ok', result, ui };
}

export function err(reason: string): ToolResult {
  return { status: 'error', reason };
}

/** A UI-only note for the transcript. */
export function note(text: string): UiContent {
  return { kind: 'text', text };
}

/** A button labelled `label` that opens widget `id`, first painted from `data`. */
export function widget(label: string, id: string, data?: JsonValue): UiContent {
  return data === undefined
    ? { kind: 'widget', label, widget: id }
    : { kind: 'widget', label, widget: id, data };
}
