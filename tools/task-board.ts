import { getDb } from '@/lib/db/client';
import { getWidgetState } from '@/lib/db/widget-states';
import { changeSessionWidget } from '@/lib/sessions/widget-service';
import { type UiContent, widget } from '@/lib/tools';
import { stateKey } from '@/lib/widgets';
import { tasks } from '@/widgets/tasks/actions';
import { type Board, type BoardChange, EMPTY_BOARD, type Task } from '@/widgets/tasks/board';

// The session's task board as the task tools reach it: the same state the widget's actions
// change, so the model and the human always see one board.

export async function readBoard(sessionId: string): Promise<Board> {
  const stored = await getWidgetState(await getDb(), sessionId, stateKey(tasks, ''));
  return (stored?.data as Board | undefined) ?? EMPTY_BOARD;
}

/** Applies `change` to the stored board (again, if a human changed it meanwhile), announced. */
export async function changeBoard(
  sessionId: string,
  change: (board: Board) => BoardChange,
): Promise<{ board: Board; task: Task } | { error: string }> {
  let task: Task | undefined;
  const result = await changeSessionWidget<Board>(
    await getDb(),
    sessionId,
    tasks,
    EMPTY_BOARD,
    (board) => {
      const changed = change(board);
      if ('error' in changed) return changed;
      task = changed.task;
      return { data: changed.board };
    },
  );
  return 'error' in result ? result : { board: result.data, task: task as Task };
}

export function openBoard(board: Board): UiContent {
  return widget('Open task board', tasks.id, board);
}
