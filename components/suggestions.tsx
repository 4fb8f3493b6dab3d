'use client';

import {
  CalculatorIcon,
  ChartLineIcon,
  GlobeIcon,
  HashIcon,
  ListTodoIcon,
  type LucideIcon,
  TableIcon,
} from 'lucide-react';
import { Button } from './ui/button';

/** One prompt per shipped tool, worded so the offline demo model recognises it. */
export const SUGGESTIONS: readonly { prompt: string; icon: LucideIcon }[] = [
  { prompt: 'Show me a counter starting at 3', icon: HashIcon },
  { prompt: 'Add a task: write the release notes', icon: ListTodoIcon },
  { prompt: 'Plot the squares of 1 to 10', icon: ChartLineIcon },
  { prompt: 'Show a table of the planets', icon: TableIcon },
  { prompt: 'What is 12 * (3 + 4)?', icon: CalculatorIcon },
  { prompt: 'Fetch https://example.com', icon: GlobeIcon },
];

type SuggestionsProps = {
  /** Sends the prompt, as the composer would. */
  onSend: (prompt: string) => void;
  /** A message is on its way: the chips ignore clicks, yet keep focus. */
  pending: boolean;
};

/** Prompts to start from: a row that scrolls sideways on phones, two columns on wider screens. */
export function Suggestions({ onSend, pending }: SuggestionsProps) {
  return (
    <ul
      aria-label="Suggestions"
      className="-mx-3 flex gap-2 overflow-x-auto px-3 pb-1 sm:mx-0 sm:grid sm:grid-cols-2 sm:overflow-visible sm:px-0 sm:pb-0"
    >
      {SUGGESTIONS.map(({ prompt, icon: Icon }) => (
        <li key={prompt} className="shrink-0">
          <Button
            variant="outline"
            pending={pending}
            onClick={() => onSend(prompt)}
            className="h-auto min-h-9 w-full justify-start py-2 text-left font-normal sm:whitespace-normal"
          >
            <Icon aria-hidden className="text-muted-foreground" />
            {prompt}
          </Button>
        </li>
      ))}
    </ul>
  );
}
