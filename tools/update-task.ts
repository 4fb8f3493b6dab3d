import type { Intent } from '@/lib/agent/demo-intents';
import { defineTool, err, type JsonValue, ok } from '@/lib/tools';
import { tasks } from '@/widgets/tasks/actions';
import { COLUMN_TITLES, COLUMNS, type Column, deleteTask, updateTask } from '@/widgets/tasks/board';
import { changeBoard, MAX_TITLE, openBoard } from './task-board';

export const updateTaskTool = defineTool({
  name: 'update_task',
  description:
    'Changes a task on the session task board: rename it, move it to another column, or ' +
    'delete it. Take the id from add_task or list_tasks.',
  parameters: {
    type: 'object',
    properties: {
      id: { type: 'string', pattern: '^t[0-9]+$' },
      title: { type: 'string', minLength: 1, maxLength: MAX_TITLE, pattern: '\\S' },
      column: { enum: COLUMNS },
      delete: { type: 'boolean' },
    },
    required: ['id'],
    additionalProperties: false,
  },
  widget: tasks,
  execute: async (_agentId, _toolCallId, { id, title, column, delete: remove }, { widgets }) => {
    if (!remove && title === undefined && column === undefined) {
      return err('nothing to change: give a title, a column, or delete: true');
    }
    const result = await changeBoard(widgets, (board) =>
      remove ? deleteTask(board, id) : updateTask(board, id, { title, column }),
    );
    if ('error' in result) return err(`cannot change the task: ${result.error}`);
    const { board, task } = result;
    return ok(
      remove
        ? `Deleted ${task.id} "${task.title}".`
        : `${task.id} is now "${task.title}" in ${task.column}.`,
      openBoard(board),
    );
  },
});

/** The demo model's way to `update_task`: "move t1 to done", "delete task t2". */
export const updateTaskIntent: Intent = {
  tool: updateTaskTool.name,
  example: 'move t1 to done',
  lead: 'I’ll update your task board.',
  // In the tool's own words when they are not one of the two it writes on success.
  answer: ({ text }) =>
    text
      .replace(/^Deleted t\d+ "(.*)"\.$/, 'I deleted “$1” from your task board.')
      .replace(
        /^t\d+ is now "(.*)" in (\w+)\.$/,
        (_line, title: string, column: string) =>
          `Done: “${title}” is now in ${COLUMN_TITLES[column as Column] ?? column}.`,
      ),
  match(clause): Record<string, JsonValue> | undefined {
    const moved = /\bmove (?:task )?(t\d+) to (todo|doing|done)\b/i.exec(clause);
    if (moved) return { id: moved[1]?.toLowerCase() ?? '', column: moved[2]?.toLowerCase() ?? '' };
    const deleted = /\b(?:delete|remove) (?:task )?(t\d+)\b/i.exec(clause);
    return deleted ? { id: deleted[1]?.toLowerCase() ?? '', delete: true } : undefined;
  },
};
