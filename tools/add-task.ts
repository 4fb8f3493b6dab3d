import type { Intent } from '@/lib/agent/demo-intents';
import { defineTool, err, ok } from '@/lib/tools';
import { tasks } from '@/widgets/tasks/actions';
import { addTask, COLUMNS } from '@/widgets/tasks/board';
import { changeBoard, MAX_TITLE, openBoard } from './task-board';

export const addTaskTool = defineTool({
  name: 'add_task',
  description:
    "Adds a task to this session's task board, which the user also edits. Returns the new " +
    "task's id (t1, t2, …) for update_task.",
  parameters: {
    type: 'object',
    properties: {
      title: { type: 'string', minLength: 1, maxLength: MAX_TITLE, pattern: '\\S' },
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

/** The demo model's way to `add_task`: "add a task: …". */
export const addTaskIntent: Intent = {
  tool: addTaskTool.name,
  example: 'add a task: water the plants',
  lead: 'I’ll add that to your task board.',
  answer: ({ args }) => `I added “${String(args.title)}” to your task board.`,
  match(clause) {
    const found = /\badd (?:a )?(?:new )?task(?:\s*:\s*|\s+(?:to\s+)?)(.+)$/i.exec(clause);
    const title = found?.[1]?.trim();
    return title && title.length <= MAX_TITLE ? { title } : undefined;
  },
};

function count(tasks: number): string {
  return tasks === 1 ? '1 task' : `${tasks} tasks`;
}
