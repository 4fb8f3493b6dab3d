import { getDb } from '@/lib/db/client';
import { changeSessionWidget } from '@/lib/sessions/widget-service';
import { defineTool, err, ok, widget } from '@/lib/tools';
import { type Board, COLUMNS, deleteTask, EMPTY_BOARD, updateTask } from '@/widgets/tasks/board';
import { tasks } from '@/widgets/tasks/definition';

export const updateTaskTool = defineTool({
  name: 'update_task',
  description:
    'Changes a task on the session task board: rename it, move it to another column, or ' +
    'delete it. Take the id from add_task or list_tasks.',
  parameters: {
    type: 'object',
    properties: {
      id: { type: 'string', pattern: '^t[0-9]+$' },
      title: { type: 'string', minLength: 1, maxLength: 200, pattern: '\\S' },
      column: { enum: COLUMNS },
      delete: { type: 'boolean' },
    },
    required: ['id'],
    additionalProperties: false,
  },
  widget: tasks,
  execute: async (_agentId, _toolCallId, { id, title, column, delete: remove }, { sessionId }) => {
    if (!remove && title === undefined && column === undefined) {
      return err('nothing to change: give a title, a column, or delete: true');
    }
    let done = '';
    const result = await changeSessionWidget<Board>(
      await getDb(),
      sessionId,
      tasks,
      EMPTY_BOARD,
      (board) => {
        const change = remove ? deleteTask(board, id) : updateTask(board, id, { title, column });
        if ('error' in change) return change;
        const { task } = change;
        done = remove
          ? `Deleted ${task.id} "${task.title}".`
          : `${task.id} is now "${task.title}" in ${task.column}.`;
        return { data: change.board };
      },
    );
    if ('error' in result) return err(`cannot change the task: ${result.error}`);
    return ok(done, widget('Open task board', tasks.id, result.data));
  },
});
