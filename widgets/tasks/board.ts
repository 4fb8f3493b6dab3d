// The task board's rules, shared by the widget's actions (the human) and the tools (the model):
// both edit the same board, so both go through these functions.

export const COLUMNS = ['todo', 'doing', 'done'] as const;
export type Column = (typeof COLUMNS)[number];
/** Each column's name, as the board shows it and the demo model says it. */
export const COLUMN_TITLES: Record<Column, string> = {
  todo: 'To do',
  doing: 'Doing',
  done: 'Done',
};
export type Task = { id: string; title: string; column: Column };
export type Board = { tasks: Task[] };

export const MAX_TASKS = 200;
export const EMPTY_BOARD: Board = { tasks: [] };

export type BoardChange = { board: Board; task: Task } | { error: string };

export function addTask(board: Board, title: string, column: Column = 'todo'): BoardChange {
  if (board.tasks.length >= MAX_TASKS) return { error: `the board is full (${MAX_TASKS} tasks)` };
  // Short, stable ids the model can name: t1, t2, …
  const next = Math.max(0, ...board.tasks.map((task) => Number(task.id.slice(1)) || 0)) + 1;
  const task: Task = { id: `t${next}`, title: title.trim(), column };
  return { board: { tasks: [...board.tasks, task] }, task };
}

export function updateTask(
  board: Board,
  id: string,
  change: { title?: string; column?: Column },
): BoardChange {
  const task = board.tasks.find((candidate) => candidate.id === id);
  if (!task) return { error: `no task ${id} on the board` };
  const updated: Task = {
    ...task,
    ...(change.title === undefined ? {} : { title: change.title.trim() }),
    ...(change.column === undefined ? {} : { column: change.column }),
  };
  return {
    board: { tasks: board.tasks.map((candidate) => (candidate.id === id ? updated : candidate)) },
    task: updated,
  };
}

export function deleteTask(board: Board, id: string): BoardChange {
  const task = board.tasks.find((candidate) => candidate.id === id);
  if (!task) return { error: `no task ${id} on the board` };
  return { board: { tasks: board.tasks.filter((candidate) => candidate.id !== id) }, task };
}

/** The board as the model reads it: one line per task, by column. */
export function describeBoard(board: Board): string {
  if (board.tasks.length === 0) return 'The task board is empty.';
  return COLUMNS.map((column) => {
    const tasks = board.tasks.filter((task) => task.column === column);
    const lines = tasks.map((task) => `- ${task.id}: ${task.title}`);
    return `${column} (${tasks.length}):${lines.length ? `\n${lines.join('\n')}` : ''}`;
  }).join('\n');
}
