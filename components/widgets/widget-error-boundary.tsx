'use client';

import { CircleAlertIcon } from 'lucide-react';
import { Component, type ReactNode } from 'react';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';

type State = { error: Error | undefined };

/** A widget view that throws shows why, inside its container; the chat around it goes on. */
export class WidgetErrorBoundary extends Component<{ children: ReactNode }, State> {
  override state: State = { error: undefined };

  static getDerivedStateFromError(error: unknown): State {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  override render() {
    if (!this.state.error) return this.props.children;
    return (
      <Alert variant="destructive" className="max-w-md">
        <CircleAlertIcon aria-hidden />
        <AlertTitle>This widget failed to show.</AlertTitle>
        <AlertDescription className="font-mono">{this.state.error.message}</AlertDescription>
      </Alert>
    );
  }
}
