import type { Intent } from '@/lib/agent/demo-intents';
import { createToolSet, type Tool } from '@/lib/tools';
import { addTaskIntent, addTaskTool } from './add-task';
import { calculate, calculateIntent } from './calculate';
import { fetchUrl, fetchUrlIntent } from './fetch-url';
import { listTasksIntent, listTasksTool } from './list-tasks';
import { plot, plotIntent } from './plot';
import { saveNote, saveNoteIntent } from './save-note';
import { showCounter, showCounterIntent } from './show-counter';
import { showTable, showTableIntent } from './show-table';
import { updateTaskIntent, updateTaskTool } from './update-task';

// Each tool is widened to Tool on its own: one array type inferred from several exact schemas
// is too deep for tsc.
const tools: Tool[] = [
  calculate as Tool,
  showCounter as Tool,
  plot as Tool,
  showTable as Tool,
  fetchUrl as Tool,
  saveNote as Tool,
  addTaskTool as Tool,
  listTasksTool as Tool,
  updateTaskTool as Tool,
];

/** The tools every Quanta session runs with. */
export const toolSet = createToolSet(tools);

/**
 * What the offline demo model recognises, for the tools above. The first that matches a clause
 * wins: explicit requests (a URL to fetch, a note to save, a task) come before the intents that
 * recognise a mere keyword, so "remember that the counter is at 3" saves a note.
 */
export const demoIntents: readonly Intent[] = [
  calculateIntent,
  fetchUrlIntent,
  saveNoteIntent,
  addTaskIntent,
  listTasksIntent,
  updateTaskIntent,
  showCounterIntent,
  plotIntent,
  showTableIntent,
];
