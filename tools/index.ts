import { createToolSet, type Tool } from '@/lib/tools';
import { calculate } from './calculate';
import { showCounter } from './show-counter';

// Each tool is widened to Tool on its own: one array type inferred from several exact schemas
// is too deep for tsc.
const tools: Tool[] = [calculate as Tool, showCounter as Tool];

/** The tools every Quanta session runs with. */
export const toolSet = createToolSet(tools);
