'use client';

import { CircleAlert, RotateCcw } from 'lucide-react';
import { Alert, AlertDescription, AlertTitle } from '../ui/alert';
import { Button } from '../ui/button';

/**
 * Why a turn failed: its first sentence in plain words, the rest (a provider's own text, often
 * technical) folded under Details, and Retry when the turn may be run again.
 */
export function TurnError({ message, onRetry }: { message: string; onRetry?: () => void }) {
  const { summary, details } = splitError(message);
  return (
    <Alert variant="destructive">
      <CircleAlert aria-hidden />
      <AlertTitle className="leading-snug">{summary}</AlertTitle>
      {(details !== undefined || onRetry) && (
        <AlertDescription className="gap-2">
          {details !== undefined && (
            <details className="text-muted-foreground">
              <summary className="w-fit cursor-pointer rounded-sm text-xs focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring">
                Details
              </summary>
              <p className="mt-1 font-mono text-xs break-words whitespace-pre-wrap">{details}</p>
            </details>
          )}
          {onRetry && (
            <Button variant="outline" size="sm" className="w-fit" onClick={onRetry}>
              <RotateCcw aria-hidden />
              Retry
            </Button>
          )}
        </AlertDescription>
      )}
    </Alert>
  );
}

/**
 * The server words a failure as a plain sentence, then the provider's own explanation
 * ("The model provider failed (HTTP 503). Overloaded"): the first is the summary.
 */
export function splitError(message: string): { summary: string; details?: string } {
  const end = message.search(/[.!?]\s/);
  const details = end === -1 ? '' : message.slice(end + 1).trim();
  return details === '' ? { summary: message } : { summary: message.slice(0, end + 1), details };
}
