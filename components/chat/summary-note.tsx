import { FoldVertical } from 'lucide-react';

/**
 * Where the turn's model was given a summary of the earlier messages instead of them
 * (QUANTA_CONTEXT_TOKENS): shown to people only; the transcript above keeps every message.
 */
export function SummaryNote() {
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
