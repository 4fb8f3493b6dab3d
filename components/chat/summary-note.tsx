import { FoldVertical, LoaderCircle } from 'lucide-react';

/**
 * Where the turn had its model summarise the earlier messages for its context
 * (QUANTA_CONTEXT_TOKENS): while it does, and after, as a divider. Shown to people only; the
 * transcript above keeps every message.
 */
export function SummaryNote({ writing }: { writing: boolean }) {
  if (writing) {
    return (
      <p role="status" className="flex items-center gap-1.5 text-sm text-muted-foreground">
        <LoaderCircle aria-hidden className="size-4 animate-spin motion-reduce:animate-none" />
        Summarising earlier messages for the model…
      </p>
    );
  }
  return (
    <p role="note" className="flex items-center gap-3 text-xs text-muted-foreground">
      <span aria-hidden className="h-px flex-1 bg-border" />
      <span className="flex items-center gap-1.5">
        <FoldVertical aria-hidden className="size-3.5" />
        Earlier messages summarised for the model
      </span>
      <span aria-hidden className="h-px flex-1 bg-border" />
    </p>
  );
}
