'use client';

import { ChevronRight, CircleAlert, CircleCheck, LoaderCircle } from 'lucide-react';
import { type ReactNode, useId, useState } from 'react';
import { type QuantaToolPart, toolNameOf, type UiContent } from '@/lib/protocol';
import { cn } from '../ui/cn';
import { Collapsible, CollapsibleContent, CollapsibleTrigger } from '../ui/collapsible';
import { focusRing } from '../ui/focus-ring';

const PREVIEW_LENGTH = 60;

/**
 * A tool call, folded to one line: state, name, a preview of its arguments, duration. Open, it
 * shows the arguments and, side by side, the two halves of the tool's result: the text the model
 * was sent, and what only the person sees (a note, or a widget and its data).
 */
export function ToolCard({ part }: { part: QuantaToolPart }) {
  const name = toolNameOf(part);
  const view = toolView(part);
  const [open, setOpen] = useState(false);
  return (
    <Collapsible
      open={open}
      onOpenChange={setOpen}
      role="group"
      aria-label={`${name} tool call`}
      // The call's state, for styles and tests (it replaces Radix's open/closed on the root).
      data-state={view.state}
      className="rounded-lg border bg-card text-sm text-card-foreground data-[state=error]:border-destructive/50"
    >
      <CollapsibleTrigger
        className={cn(
          'group/trigger flex w-full min-w-0 items-center gap-2 rounded-lg px-3 py-2 text-left hover:bg-accent/50',
          focusRing,
        )}
      >
        <ChevronRight
          aria-hidden
          className="size-4 shrink-0 text-muted-foreground transition-transform group-data-[state=open]/trigger:rotate-90"
        />
        <StateIcon state={view.state} />
        <span className="sr-only">{view.status}</span>
        <span className="shrink-0 font-mono font-medium">{name}</span>
        <span className="min-w-0 flex-1 truncate font-mono text-xs text-muted-foreground">
          {preview(part.input)}
        </span>
        {view.took && (
          <span className="shrink-0 text-xs text-muted-foreground tabular-nums">{view.took}</span>
        )}
      </CollapsibleTrigger>
      {/* Mounted only open: Radix measures its content as it mounts, folded or not, a forced
          layout for every card a scroll brings into view. */}
      {open && (
        <CollapsibleContent className="flex flex-col gap-3 border-t px-3 py-3">
          <Panel label="Arguments">
            <Code text={JSON.stringify(part.input ?? {}, null, 2)} />
          </Panel>
          {view.modelText !== undefined && (
            <div className="grid gap-3 md:grid-cols-2">
              <Panel label="Sent to the model">
                <Code text={view.modelText} />
              </Panel>
              <Panel label="Shown only to you">
                <ShownToYou ui={view.ui} />
              </Panel>
            </div>
          )}
        </CollapsibleContent>
      )}
    </Collapsible>
  );
}

type ToolView = {
  state: 'running' | 'done' | 'error';
  /** The state in words, for screen readers (the icon shows it). */
  status: string;
  took?: string;
  /** Exactly the text the model received as the call's result. */
  modelText?: string;
  ui?: UiContent;
};

export function toolView(part: QuantaToolPart): ToolView {
  switch (part.state) {
    case 'input-streaming':
    case 'input-available':
    case 'approval-requested':
    case 'approval-responded':
      return { state: 'running', status: 'Running…' };
    case 'output-error':
      return { state: 'error', status: 'Failed', modelText: part.errorText };
    case 'output-denied':
      return { state: 'error', status: 'Denied' };
    case 'output-available': {
      // A call of an unknown tool (a dynamic part) only ever fails: it has no output to show.
      if (part.type === 'dynamic-tool') return { state: 'done', status: 'Done' };
      const { output } = part;
      const took = output.durationMs === undefined ? undefined : duration(output.durationMs);
      return output.isError
        ? { state: 'error', status: 'Error', took, modelText: output.modelText }
        : { state: 'done', status: 'Done', took, modelText: output.modelText, ui: output.ui };
    }
  }
}

function StateIcon({ state }: { state: ToolView['state'] }) {
  if (state === 'running') {
    return (
      <LoaderCircle
        aria-hidden
        className="size-4 shrink-0 animate-spin text-muted-foreground motion-reduce:animate-none"
      />
    );
  }
  if (state === 'error') {
    return <CircleAlert aria-hidden className="size-4 shrink-0 text-destructive" />;
  }
  return <CircleCheck aria-hidden className="size-4 shrink-0 text-muted-foreground" />;
}

/** The half of the result the model never saw: a note, or a widget and the data it opens on. */
function ShownToYou({ ui }: { ui?: UiContent }) {
  if (!ui)
    return <p className="text-xs text-muted-foreground">Nothing: the model’s text is all.</p>;
  if (ui.kind === 'text') return <Code text={ui.text} />;
  return (
    <>
      <p className="text-xs">
        The <code className="font-mono">{ui.widget}</code> widget, behind the button “{ui.label}”
        {ui.data === undefined ? ', with no data.' : ', with this data:'}
      </p>
      {ui.data !== undefined && <Code text={JSON.stringify(ui.data, null, 2)} />}
    </>
  );
}

function Panel({ label, children }: { label: string; children: ReactNode }) {
  const captionId = useId();
  return (
    <figure aria-labelledby={captionId} className="flex min-w-0 flex-col gap-1">
      <figcaption id={captionId} className="text-xs font-medium text-muted-foreground">
        {label}
      </figcaption>
      {children}
    </figure>
  );
}

function Code({ text }: { text: string }) {
  return (
    <pre className="max-h-64 overflow-auto rounded-md bg-muted px-2.5 py-2 font-mono text-xs break-words whitespace-pre-wrap">
      {text}
    </pre>
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
