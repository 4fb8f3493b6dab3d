import { getDb } from '@/lib/db/client';
import { getWidgetState } from '@/lib/db/widget-states';
import { defineTool, ok, widget } from '@/lib/tools';
import { stateKey } from '@/lib/widgets/state-key';
import { type Board, describeBoard, EMPTY_BOARD } from '@/widgets/tasks/board';
import { tasks } from '@/widgets/tasks/definition';

export const listTasksTool = defineTool({
  name: 'list_tasks',
  description:
    "Lists this session's task board — as the user left it, their edits included — by column " +
    '(todo, doing, done), with each task id.',
  parameters: { type: 'object', properties: {}, additionalProperties: false },
  widget: tasks,
  execute: async (_agentId, _toolCallId, _args, { sessionId }) => {
    const stored = await getWidgetState(await getDb(), sessionId, stateKey(tasks, ''));
    const board = (stored?.data as Board | undefined) ?? EMPTY_BOARD;
    return ok(describeBoard(board), widget('Open task board', tasks.id, board));
  },
});
