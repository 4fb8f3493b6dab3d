import { getDb } from '@/lib/db/client';
import { changeSessionWidget } from '@/lib/sessions/widget-service';
import { defineTool, err, ok, widget } from '@/lib/tools';
import { addTask, type Board, COLUMNS, EMPTY_BOARD } from '@/widgets/tasks/board';
import { tasks } from '@/widgets/tasks/definition';

export const addTaskTool = defineTool({
  name: 'add_task',
  description:
    "Adds a task to this session's task board, which the user also edits. Returns the new " +
    "task's id (t1, t2, …) for update_task.",
  parameters: {
    type: 'object',
    properties: {
      title: { type: 'string', minLength: 1, maxLength: 200, pattern: '\\S' },
      column: { enum: COLUMNS, description: 'Defaults to todo.' },
    },
    required: ['title'],
    additionalProperties: false,
  },
  widget: tasks,
  execute: async (_agentId, _toolCallId, { title, column }, { sessionId }) => {
    let added = '';
    const result = await changeSessionWidget<Board>(
      await getDb(),
      sessionId,
      tasks,
      EMPTY_BOARD,
      (board) => {
        const change = addTask(board, title, column);
        if ('error' in change) return change;
        added = `${change.task.id} "${change.task.title}" in ${change.task.column}`;
        return { data: change.board };
      },
    );
    if ('error' in result) return err(`cannot add the task: ${result.error}`);
    return ok(
      `Added task ${added}. The board has ${result.data.tasks.length} tasks.`,
      widget('Open task board', tasks.id, result.data),
    );
  },
});
