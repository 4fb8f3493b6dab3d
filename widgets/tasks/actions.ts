import { accept, reject, withActions } from '@/lib/widgets/actions';
import { addTask, type BoardChange, deleteTask, updateTask } from './board';
import { column, taskId, tasksSchema } from './schema';

const applied = (change: BoardChange) =>
  'error' in change ? reject(change.error) : accept(change.board);

/** The task board as the server runs it: its schema and the human's edits. */
export const tasks = withActions(tasksSchema, (action) => ({
  add: action({
    parameters: {
      type: 'object',
      properties: { title: { type: 'string', minLength: 1, maxLength: 200, pattern: '\\S' } },
      required: ['title'],
      additionalProperties: false,
    },
    handle: (_ctx, { title }, board) => applied(addTask(board, title)),
  }),
  move: action({
    parameters: {
      type: 'object',
      properties: { id: taskId, column },
      required: ['id', 'column'],
      additionalProperties: false,
    },
    handle: (_ctx, { id, column: to }, board) => applied(updateTask(board, id, { column: to })),
  }),
  delete: action({
    parameters: {
      type: 'object',
      properties: { id: taskId },
      required: ['id'],
      additionalProperties: false,
    },
    handle: (_ctx, { id }, board) => applied(deleteTask(board, id)),
  }),
}));
