'use client';

import type { UiContent } from '@/lib/protocol';

/**
 * A tool's UI side effect, shown right after its tool card: a note for the reader, or a button
 * that opens the tool's widget. The model never saw either.
 */
export function UiEffect({ ui, onOpenWidget }: { ui: UiContent; onOpenWidget: () => void }) {
  if (ui.kind === 'text') {
    return (
      <aside
        aria-label="Note"
        className="rounded-md border-l-4 border-amber-400 bg-amber-50 px-3 py-2 text-sm text-amber-950 dark:border-amber-500 dark:bg-amber-950/40 dark:text-amber-100"
      >
        <span className="mr-2 text-xs font-semibold tracking-wide uppercase">Note</span>
        {ui.text}
      </aside>
    );
  }
  return (
    <button
      type="button"
      onClick={onOpenWidget}
      className="self-start rounded-md border border-blue-300 bg-blue-50 px-3 py-1.5 text-sm font-medium text-blue-900 hover:bg-blue-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-500 dark:border-blue-800 dark:bg-blue-950 dark:text-blue-100 dark:hover:bg-blue-900"
    >
      {ui.label}
    </button>
  );
}
