'use client';

import { AppWindow, StickyNote } from 'lucide-react';
import type { UiContent } from '@/lib/protocol';
import { Button } from '../ui/button';

/**
 * A tool's UI side effect, shown right after its tool card: a note for the reader, or a button
 * that opens the tool's widget. The model never saw either.
 */
export function UiEffect({ ui, onOpenWidget }: { ui: UiContent; onOpenWidget: () => void }) {
  if (ui.kind === 'text') {
    return (
      <aside
        aria-label="Note"
        className="flex items-start gap-2 rounded-md bg-muted px-3 py-2 text-sm text-foreground"
      >
        <StickyNote aria-hidden className="mt-0.5 size-4 shrink-0 text-muted-foreground" />
        <span>{ui.text}</span>
      </aside>
    );
  }
  return (
    <Button
      variant="outline"
      // A long label wraps rather than widen the transcript.
      className="h-auto min-h-9 max-w-full self-start py-1.5 text-left whitespace-normal"
      onClick={onOpenWidget}
    >
      <AppWindow aria-hidden />
      {ui.label}
    </Button>
  );
}
