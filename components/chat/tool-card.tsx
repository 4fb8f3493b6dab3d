'use client';

import { getToolName } from 'ai';
import type { QuantaToolPart } from '@/lib/protocol';

const PREVIEW_LENGTH = 60;

/** A tool call: name, a preview of its arguments, running state, then its result or error. */
export function ToolCard({ part }: { part: QuantaToolPart }) {
  const name = getToolName(part);
  const view = toolView(part);
  return (
    <details
      data-state={view.state}
      className={`group rounded-lg border text-sm ${
        view.state === 'error'
          ? 'border-red-300 bg-red-50 dark:border-red-900 dark:bg-red-950/40'
          : 'border-zinc-200 bg-zinc-50 dark:border-zinc-800 dark:bg-zinc-900'
      }`}
    >
      <summary className="flex cursor-pointer list-none items-center gap-2 rounded-lg px-3 py-2 focus-visible:outline-2 focus-visible:outline-blue-500">
        <StateMark state={view.state} />
        <span className="font-mono font-medium">{name}</span>
        <span className="min-w-0 flex-1 truncate font-mono text-xs text-zinc-500 dark:text-zinc-400">
          {preview(part.input)}
        </span>
        <span className="shrink-0 text-xs text-zinc-500 dark:text-zinc-400">{view.status}</span>
      </summary>
      <div className="flex flex-col gap-2 border-t border-inherit px-3 py-2">
        <Block label="Arguments" text={JSON.stringify(part.input ?? {}, null, 2)} />
        {view.result !== undefined && (
          <Block label={view.state === 'error' ? 'Error' : 'Result'} text={view.result} />
        )}
      </div>
    </details>
  );
}

type ToolView = { state: 'running' | 'done' | 'error'; status: string; result?: string };

export function toolView(part: QuantaToolPart): ToolView {
  switch (part.state) {
    case 'input-streaming':
    case 'input-available':
    case 'approval-requested':
    case 'approval-responded':
      return { state: 'running', status: 'Running…' };
    case 'output-error':
      return { state: 'error', status: 'Failed', result: part.errorText };
    case 'output-denied':
      return { state: 'error', status: 'Denied' };
    case 'output-available': {
      // A call of an unknown tool (a dynamic part) only ever fails: it has no output to show.
      if (part.type === 'dynamic-tool') return { state: 'done', status: 'Done' };
      const { output } = part;
      const took = output.durationMs === undefined ? '' : ` · ${duration(output.durationMs)}`;
      return output.isError
        ? { state: 'error', status: `Error${took}`, result: output.modelText }
        : { state: 'done', status: `Done${took}`, result: output.modelText };
    }
  }
}

function StateMark({ state }: { state: ToolView['state'] }) {
  if (state === 'running') {
    return (
      <span
        aria-hidden="true"
        className="size-3 animate-spin rounded-full border-2 border-zinc-400 border-t-transparent"
      />
    );
  }
  return (
    <span
      aria-hidden="true"
      className={`size-2 rounded-full ${state === 'error' ? 'bg-red-500' : 'bg-emerald-500'}`}
    />
  );
}

function Block({ label, text }: { label: string; text: string }) {
  return (
    <div>
      <div className="text-xs font-medium text-zinc-500 dark:text-zinc-400">{label}</div>
      <pre className="mt-1 max-h-64 overflow-auto font-mono text-xs whitespace-pre-wrap break-words">
        {text}
      </pre>
    </div>
  );
}

function preview(input: unknown): string {
  if (input === undefined) return '';
  const values =
    typeof input === 'object' && input !== null && !Array.isArray(input)
      ? Object.values(input)
      : [input];
  const text = values.map((value) => (typeof value === 'string' ? value : JSON.stringify(value)));
  const joined = text.join(', ');
  return joined.length > PREVIEW_LENGTH ? `${joined.slice(0, PREVIEW_LENGTH - 1)}…` : joined;
}

function duration(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
}
