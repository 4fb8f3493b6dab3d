import { defineTool, err, ok } from '@/lib/tools';
import { tasks } from '@/widgets/tasks/actions';
import { addTask, COLUMNS } from '@/widgets/tasks/board';
import { changeBoard, openBoard } from './task-board';

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
  execute: async (_agentId, _toolCallId, { title, column }, { widgets }) => {
    const result = await changeBoard(widgets, (board) => addTask(board, title, column));
    if ('error' in result) return err(`cannot add the task: ${result.error}`);
    const { board, task } = result;
    return ok(
      `Added task ${task.id} "${task.title}" in ${task.column}. The board has ${count(board.tasks.length)}.`,
      openBoard(board),
    );
  },
});

function count(tasks: number): string {
  return tasks === 1 ? '1 task' : `${tasks} tasks`;
}
