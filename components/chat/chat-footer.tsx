'use client';

import { Info } from 'lucide-react';
import type { SessionView, TokenUsage } from '@/lib/protocol';
import { Composer } from '../composer';
import { ActionButton } from './action-button';
import { ModelPicker } from './model-picker';
import { formatUsage } from './usage';

type ChatFooterProps = {
  session: SessionView;
  /** A turn this tab did not send runs: this says so. */
  turnNote?: string;
  onSend: (text: string) => Promise<unknown> | undefined;
  running: boolean;
  /** Undefined for a reader: no Stop. */
  onStop?: () => void;
  disabledReason?: string;
  autoFocus: boolean;
  /** The whole session's usage, for its owner; undefined hides it. */
  usage?: TokenUsage;
};

/** Under the transcript: a note about a turn sent elsewhere, then the composer with the model. */
export function ChatFooter({ session, turnNote, usage, ...composer }: ChatFooterProps) {
  return (
    <div className="shrink-0 px-3 pt-1 pb-3">
      {turnNote && (
        <p
          role="status"
          className="mx-auto mb-2 max-w-3xl animate-pulse text-sm text-muted-foreground motion-reduce:animate-none"
        >
          {turnNote}
        </p>
      )}
      <Composer
        {...composer}
        reasonShownAbove={turnNote !== undefined}
        tools={
          <>
            <ModelPicker session={session} />
            {usage && (
              <ActionButton
                label={`Session: ${formatUsage(usage)}`}
                className="text-muted-foreground"
              >
                <Info aria-hidden />
              </ActionButton>
            )}
          </>
        }
      />
    </div>
  );
}
