'use client';

import { ArrowLeftIcon, ArrowRightIcon, Trash2Icon } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import type { WidgetViewProps } from '@/lib/widgets';
import type { tasks } from './actions';
import { COLUMNS, COLUMN_TITLES as titles } from './board';

export default function TasksView({ data, readOnly, pending, act }: WidgetViewProps<typeof tasks>) {
  const [title, setTitle] = useState('');
  const board = data?.tasks ?? [];
  // A reader cannot act: disabled. While an action runs a control is only pending, so the one
  // pressed keeps focus.
  const control = { variant: 'ghost', size: 'icon-sm', disabled: readOnly, pending } as const;

  async function add(event: FormEvent) {
    event.preventDefault();
    if (!title.trim()) return;
    if (await act('add', { title: title.trim() })) setTitle('');
  }

  return (
    <div className="flex flex-col gap-5">
      {!readOnly && (
        <form onSubmit={add} className="flex gap-2">
          <Input
            aria-label="New task"
            value={title}
            maxLength={200}
            placeholder="New task…"
            onChange={(event) => setTitle(event.target.value)}
            className="flex-1"
          />
          <Button type="submit" disabled={!title.trim()} pending={pending}>
            Add
          </Button>
        </form>
      )}
      {COLUMNS.map((column, index) => {
        const inColumn = board.filter((task) => task.column === column);
        const previous = COLUMNS[index - 1];
        const next = COLUMNS[index + 1];
        return (
          <section key={column} aria-label={titles[column]} className="flex flex-col gap-2">
            <h3 className="flex items-center gap-2 text-sm font-semibold">
              {titles[column]}
              <Badge variant="secondary">{inColumn.length}</Badge>
            </h3>
            {inColumn.length === 0 && (
              <p className="text-sm text-muted-foreground">Nothing here.</p>
            )}
            <ul className="flex flex-col gap-1.5">
              {inColumn.map((task) => (
                <li
                  key={task.id}
                  className="flex items-center gap-1 rounded-lg border bg-card py-1 pr-1 pl-3 text-card-foreground shadow-xs"
                >
                  <span className="min-w-0 flex-1 break-words text-sm">{task.title}</span>
                  {previous && (
                    <Button
                      {...control}
                      aria-label={`Move “${task.title}” to ${titles[previous]}`}
                      onClick={() => act('move', { id: task.id, column: previous })}
                    >
                      <ArrowLeftIcon aria-hidden />
                    </Button>
                  )}
                  {next && (
                    <Button
                      {...control}
                      aria-label={`Move “${task.title}” to ${titles[next]}`}
                      onClick={() => act('move', { id: task.id, column: next })}
                    >
                      <ArrowRightIcon aria-hidden />
                    </Button>
                  )}
                  <Button
                    {...control}
                    aria-label={`Delete “${task.title}”`}
                    onClick={() => act('delete', { id: task.id })}
                  >
                    <Trash2Icon aria-hidden />
                  </Button>
                </li>
              ))}
            </ul>
          </section>
        );
      })}
    </div>
  );
}
