import type { Intent } from '@/lib/agent/demo-intents';
import { defineTool, ok } from '@/lib/tools';
import { tasks } from '@/widgets/tasks/actions';
import { COLUMN_TITLES, type Column, describeBoard } from '@/widgets/tasks/board';
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
  lead: 'Let me look at your task board.',
  answer: ({ text }) => boardInWords(text),
  match(clause) {
    return /\b(?:list|show)\b.*\b(?:tasks|task board)\b/i.test(clause) ? {} : undefined;
  },
};

/**
 * The board as `describeBoard` wrote it, in a sentence: "Here’s your task board — Doing:
 * “water the plants” (t1)." Empty columns are left out.
 */
function boardInWords(text: string): string {
  const columns = [...text.matchAll(/^(\w+) \(\d+\):((?:\n- .*)*)/gm)].flatMap(
    ([, column = '', lines = '']) => {
      const tasks = [...lines.matchAll(/^- (t\d+): (.*)$/gm)].map(
        ([, id, title]) => `“${title}” (${id})`,
      );
      const name = COLUMN_TITLES[column as Column] ?? column;
      return tasks.length > 0 ? [`${name}: ${tasks.join(', ')}`] : [];
    },
  );
  return columns.length > 0
    ? `Here’s your task board — ${columns.join('; ')}.`
    : 'Your task board is empty: ask me to add a task.';
}
