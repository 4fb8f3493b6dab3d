'use client';

import { CircleAlertIcon } from 'lucide-react';
import { Suspense, useRef, useState } from 'react';
import { Alert, AlertDescription } from '@/components/ui/alert';
import type { QuantaMessage, WidgetState } from '@/lib/protocol';
import { findWidgetCall, stateKey } from '@/lib/widgets';
import { findWidget, type WidgetEntry } from '@/widgets/registry';
import { ApiError, api } from '../api';
import { setOpenWidget, useOpenWidget } from './open-widget';
import { WidgetContainer } from './widget-container';
import { WidgetErrorBoundary } from './widget-error-boundary';

type WidgetHostProps = {
  sessionId: string;
  messages: readonly QuantaMessage[];
  /** The latest state of each widget acted on, by state key. */
  states: Readonly<Record<string, WidgetState>>;
  onState: (key: string, state: WidgetState) => void;
  onSendMessage: (text: string) => void;
  readOnly: boolean;
};

/** The open widget, if any: its container, its view, or a clear fallback. */
export function WidgetHost(props: WidgetHostProps) {
  const toolCallId = useOpenWidget();
  if (toolCallId === null) return null;
  const call = findWidgetCall(props.messages, toolCallId);
  const entry = call && findWidget(call.widget);
  const close = () => setOpenWidget(null);

  if (!call) {
    return (
      <WidgetContainer container="modal" title="Widget not found" onClose={close}>
        <p role="alert" className="max-w-md">
          No widget of this session has the id “{toolCallId}”.
        </p>
      </WidgetContainer>
    );
  }
  if (!entry) {
    return (
      <WidgetContainer container="modal" title="Unknown widget" onClose={close}>
        <p role="alert" className="max-w-md">
          This version of Quanta has no view for the widget “{call.widget}”.
        </p>
      </WidgetContainer>
    );
  }
  return (
    <WidgetContainer
      container={entry.schema.container ?? 'modal'}
      title={entry.schema.title}
      onClose={close}
    >
      <WidgetErrorBoundary key={toolCallId}>
        <Suspense fallback={<p className="text-sm text-muted-foreground">Loading…</p>}>
          <OpenWidget
            {...props}
            entry={entry}
            toolCallId={toolCallId}
            initialData={call.data}
            close={close}
          />
        </Suspense>
      </WidgetErrorBoundary>
    </WidgetContainer>
  );
}

type OpenWidgetProps = WidgetHostProps & {
  entry: WidgetEntry;
  toolCallId: string;
  initialData: unknown;
  close: () => void;
};

/** A widget's view with its latest state, and the actions that change it on the server. */
function OpenWidget({ entry, toolCallId, initialData, close, ...host }: OpenWidgetProps) {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string>();
  const key = stateKey(entry.schema, toolCallId);
  const state = host.states[key] ?? { data: initialData, version: 0 };

  // Actions run one after another, each naming the version the one before produced: two quick
  // clicks are two changes, not a conflict with ourselves.
  const version = useRef(state.version);
  version.current = Math.max(version.current, state.version);
  const queue = useRef<Promise<unknown>>(Promise.resolve());

  // A failure drops the clicks queued behind it: they were meant for data that turned out
  // not to be what the server had (a stale version), or that never changed.
  const failures = useRef(0);

  function act(action: string, args: Record<string, unknown> = {}): Promise<boolean> {
    const queuedAt = failures.current;
    const run = queue.current.then(() =>
      queuedAt === failures.current ? send(action, args) : false,
    );
    queue.current = run;
    return run;
  }

  async function send(action: string, args: Record<string, unknown>): Promise<boolean> {
    setPending(true);
    setError(undefined);
    try {
      const state = await api<WidgetState>(
        `/api/sessions/${host.sessionId}/widgets/${encodeURIComponent(toolCallId)}/actions`,
        { method: 'POST', body: { action, args, version: version.current } },
      );
      version.current = state.version;
      host.onState(key, state);
      return true;
    } catch (error) {
      failures.current += 1;
      // Stale: someone acted first. Show what they made of it; the reader tries again.
      const current =
        error instanceof ApiError ? (error.current as WidgetState | undefined) : undefined;
      if (current) {
        version.current = current.version;
        host.onState(key, current);
      }
      setError(
        error instanceof ApiError ? error.message : 'The action could not reach the server.',
      );
      return false;
    } finally {
      setPending(false);
    }
  }

  const { View } = entry;
  return (
    <div className="flex flex-col gap-3">
      <View
        data={state.data}
        readOnly={host.readOnly}
        pending={pending}
        act={act}
        sendMessage={(text: string) => {
          if (host.readOnly) return;
          close();
          host.onSendMessage(text);
        }}
      />
      {host.readOnly && (
        <p className="text-xs text-muted-foreground">Read-only: fork the session to change it.</p>
      )}
      {error && (
        <Alert variant="destructive">
          <CircleAlertIcon aria-hidden />
          <AlertDescription>{error}</AlertDescription>
        </Alert>
      )}
    </div>
  );
}
