import { createToolSet, type Tool } from '@/lib/tools';
import { addTaskTool } from './add-task';
import { calculate } from './calculate';
import { fetchUrl } from './fetch-url';
import { listTasksTool } from './list-tasks';
import { plot } from './plot';
import { saveNote } from './save-note';
import { showCounter } from './show-counter';
import { showTable } from './show-table';
import { updateTaskTool } from './update-task';

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
