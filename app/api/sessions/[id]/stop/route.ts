import { getDb } from '@/lib/db/client';
import { routeHandlers } from '@/lib/http/route-handlers';
import { stop } from '@/lib/sessions/turn-service';

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = routeHandlers(
  '/api/sessions/{id}/stop',
  {
    POST: async (request, { params }: RouteContext<'/api/sessions/[id]/stop'>) =>
      Response.json(await stop(await getDb(), request, (await params).id)),
  },
);
