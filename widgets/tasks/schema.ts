import { defineWidget } from '@/lib/widgets';
import { COLUMNS, MAX_TASKS } from './board';

// A task's id and column, as the data holds them and the actions' parameters name them.
export const taskId = { type: 'string', pattern: '^t[0-9]+$' } as const;
export const column = { enum: COLUMNS } as const;

/**
 * The session's task board, in a side drawer: one board per session that the model (add_task,
 * list_tasks, update_task) and the human (this widget's actions) edit together.
 */
export const tasksSchema = defineWidget({
  id: 'tasks',
  title: 'Task board',
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
});
