'use client';

import { type FormEvent, useState } from 'react';
import type { WidgetViewProps } from '@/lib/widgets';
import type { tasks } from './actions';
import { COLUMNS, type Column } from './board';

const titles: Record<Column, string> = { todo: 'To do', doing: 'Doing', done: 'Done' };
const control =
  'rounded px-1.5 py-0.5 text-xs text-zinc-600 hover:bg-zinc-200 focus-visible:outline-2 focus-visible:outline-blue-500 disabled:opacity-40 dark:text-zinc-300 dark:hover:bg-zinc-700';

export default function TasksView({ data, readOnly, pending, act }: WidgetViewProps<typeof tasks>) {
  const [title, setTitle] = useState('');
  const board = data?.tasks ?? [];
  const disabled = readOnly || pending;

  async function add(event: FormEvent) {
    event.preventDefault();
    if (!title.trim()) return;
    if (await act('add', { title: title.trim() })) setTitle('');
  }

  return (
    <div className="flex flex-col gap-4">
      {!readOnly && (
        <form onSubmit={add} className="flex gap-2">
          <input
            aria-label="New task"
            value={title}
            maxLength={200}
            placeholder="New task…"
            onChange={(event) => setTitle(event.target.value)}
            className="min-w-0 flex-1 rounded-md border border-zinc-300 bg-transparent px-2 py-1.5 text-base focus-visible:outline-2 focus-visible:outline-blue-500 dark:border-zinc-700"
          />
          <button
            type="submit"
            disabled={disabled || !title.trim()}
            className="rounded-md bg-zinc-900 px-3 py-1.5 text-sm font-medium text-white focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-500 disabled:opacity-40 dark:bg-zinc-100 dark:text-zinc-900"
          >
            Add
          </button>
        </form>
      )}
      {COLUMNS.map((column, index) => {
        const inColumn = board.filter((task) => task.column === column);
        const previous = COLUMNS[index - 1];
        const next = COLUMNS[index + 1];
        return (
          <section key={column} aria-label={titles[column]} className="flex flex-col gap-1.5">
            <h3 className="text-sm font-semibold">
              {titles[column]}{' '}
              <span className="font-normal text-zinc-500">({inColumn.length})</span>
            </h3>
            {inColumn.length === 0 && <p className="text-sm text-zinc-500">Nothing here.</p>}
            <ul className="flex flex-col gap-1.5">
              {inColumn.map((task) => (
                <li
                  key={task.id}
                  className="flex items-center gap-1 rounded-md border border-zinc-200 bg-zinc-50 px-2 py-1.5 dark:border-zinc-800 dark:bg-zinc-800/50"
                >
                  <span className="min-w-0 flex-1 break-words text-sm">{task.title}</span>
                  {previous && (
                    <button
                      type="button"
                      className={control}
                      disabled={disabled}
                      aria-label={`Move “${task.title}” to ${titles[previous]}`}
                      onClick={() => act('move', { id: task.id, column: previous })}
                    >
                      ←
                    </button>
                  )}
                  {next && (
                    <button
                      type="button"
                      className={control}
                      disabled={disabled}
                      aria-label={`Move “${task.title}” to ${titles[next]}`}
                      onClick={() => act('move', { id: task.id, column: next })}
                    >
                      →
                    </button>
                  )}
                  <button
                    type="button"
                    className={control}
                    disabled={disabled}
                    aria-label={`Delete “${task.title}”`}
                    onClick={() => act('delete', { id: task.id })}
                  >
                    ✕
                  </button>
                </li>
              ))}
            </ul>
          </section>
        );
      })}
    </div>
  );
}
