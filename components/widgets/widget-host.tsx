'use client';

import { useSearchParams } from 'next/navigation';
import { Suspense } from 'react';
import type { QuantaMessage } from '@/lib/agent/types';
import { findWidget } from '@/widgets/registry';
import { findWidgetCall } from './find-widget-call';
import { WidgetContainer } from './widget-container';
import { WidgetErrorBoundary } from './widget-error-boundary';

export const WIDGET_PARAM = 'widget';

/** Shows the widget of a tool call (`?widget=<toolCallId>`): the URL is the open widget. */
export function setOpenWidget(toolCallId: string | null): void {
  const url = new URL(window.location.href);
  if (toolCallId === null) url.searchParams.delete(WIDGET_PARAM);
  else url.searchParams.set(WIDGET_PARAM, toolCallId);
  // Next keeps useSearchParams in step with the history API, without a server round trip.
  window.history.replaceState(null, '', url);
}

/** The open widget, if the URL names one: its container, its view, or a clear fallback. */
export function WidgetHost({
  messages,
  readOnly,
}: {
  messages: readonly QuantaMessage[];
  readOnly: boolean;
}) {
  const toolCallId = useSearchParams().get(WIDGET_PARAM);
  if (toolCallId === null) return null;
  const call = findWidgetCall(messages, toolCallId);
  const entry = call && findWidget(call.widget);
  const close = () => setOpenWidget(null);

  if (!call) {
    return (
      <WidgetContainer container="modal" title="Widget not found" onClose={close}>
        <p role="alert">No widget of this session has the id “{toolCallId}”.</p>
      </WidgetContainer>
    );
  }
  if (!entry) {
    return (
      <WidgetContainer container="modal" title={call.label} onClose={close}>
        <p role="alert">
          Unknown widget “{call.widget}”: this version of Quanta has no view for it.
        </p>
      </WidgetContainer>
    );
  }
  const { View, definition } = entry;
  return (
    <WidgetContainer container={definition.container ?? 'modal'} title={call.label} onClose={close}>
      <WidgetErrorBoundary key={toolCallId}>
        <Suspense fallback={<p className="text-sm text-zinc-500">Loading…</p>}>
          <View data={call.data} readOnly={readOnly} />
        </Suspense>
      </WidgetErrorBoundary>
    </WidgetContainer>
  );
}
