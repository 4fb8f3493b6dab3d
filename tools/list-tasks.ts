import type { Intent } from '@/lib/agent/demo-intents';
import { defineTool, ok } from '@/lib/tools';
import { tasks } from '@/widgets/tasks/actions';
import { describeBoard } from '@/widgets/tasks/board';
import { openBoard, readBoard } from './task-board';

export const listTasksTool = defineTool({
  name: 'list_tasks',
  description:
    "Lists this session's task board — as the user left it, their edits included — by column " +
    '(todo, doing, done), with each task id.',
  parameters: { type: 'object', properties: {}, additionalProperties: false },
  widget: tasks,
  execute: async (_agentId, _toolCallId, _args, { widgets }) => {
    const board = await readBoard(widgets);
    return ok(describeBoard(board), openBoard(board));
  },
});

/** The demo model's way to `list_tasks`: "list my tasks", "show the task board". */
export const listTasksIntent: Intent = {
  tool: listTasksTool.name,
  example: 'list my tasks',
  match(clause) {
    return /\b(?:list|show)\b.*\b(?:tasks|task board)\b/i.test(clause) ? {} : undefined;
  },
};
