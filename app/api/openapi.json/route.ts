import { openApiDocument } from '@/lib/http/openapi';
import { routeHandlers } from '@/lib/http/route-handlers';

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = routeHandlers('/api/openapi.json', {
  GET: async () => Response.json(openApiDocument()),
});
