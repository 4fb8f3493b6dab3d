import { listModels } from '@/lib/agent/models';
import { routeHandlers } from '@/lib/http/route-handlers';

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = routeHandlers('/api/models', {
  GET: async () => Response.json(await listModels()),
});
