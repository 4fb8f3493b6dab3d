import { type SessionWidgets, type UiContent, widget } from '@/lib/tools';
import { tasks } from '@/widgets/tasks/actions';
import { type Board, type BoardChange, EMPTY_BOARD, type Task } from '@/widgets/tasks/board';

// The session's task board as the task tools reach it: the same state the widget's actions
// change, so the model and the human always see one board.

/** The longest task title the task tools take, in characters. */
export const MAX_TITLE = 200;

export function readBoard(widgets: SessionWidgets): Promise<Board> {
  return widgets.read(tasks, EMPTY_BOARD);
}

/** Applies `change` to the stored board (again, if a human changed it meanwhile), announced. */
export async function changeBoard(
  widgets: SessionWidgets,
  change: (board: Board) => BoardChange,
): Promise<{ board: Board; task: Task } | { error: string }> {
  let task: Task | undefined;
  const result = await widgets.change<Board>(tasks, EMPTY_BOARD, (board) => {
    const changed = change(board);
    if ('error' in changed) return changed;
    task = changed.task;
    return { data: changed.board };
  });
  return 'error' in result ? result : { board: result.data, task: task as Task };
}

export function openBoard(board: Board): UiContent {
  return widget('Open task board', tasks.id, board);
}
