import { accept, defineWidget, reject } from '@/lib/widgets';
import { addTask, type BoardChange, COLUMNS, deleteTask, MAX_TASKS, updateTask } from './board';

const taskId = { type: 'string', pattern: '^t[0-9]+$' } as const;
const column = { enum: COLUMNS } as const;

const applied = (change: BoardChange) =>
  'error' in change ? reject(change.error) : accept(change.board);

/**
 * The session's task board, in a side drawer: one board per session that the model (add_task,
 * list_tasks, update_task) and the human (this widget's actions) edit together.
 */
export const tasks = defineWidget({
  id: 'tasks',
  container: 'drawer',
  scope: 'session',
  data: {
    type: 'object',
    properties: {
      tasks: {
        type: 'array',
        maxItems: MAX_TASKS,
        items: {
          type: 'object',
          properties: {
            id: taskId,
            title: { type: 'string', minLength: 1, maxLength: 200 },
            column,
          },
          required: ['id', 'title', 'column'],
          additionalProperties: false,
        },
      },
    },
    required: ['tasks'],
    additionalProperties: false,
  },
  actions: (action) => ({
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
  }),
});
