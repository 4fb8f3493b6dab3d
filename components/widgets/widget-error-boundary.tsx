'use client';

import { Component, type ReactNode } from 'react';

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
      <div role="alert" className="flex flex-col gap-1 py-4">
        <p className="font-medium">This widget failed to show.</p>
        <p className="font-mono text-sm text-red-700 dark:text-red-400">
          {this.state.error.message}
        </p>
      </div>
    );
  }
}
