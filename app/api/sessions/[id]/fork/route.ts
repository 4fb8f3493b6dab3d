import { getDb } from '@/lib/db/client';
import { routeHandlers } from '@/lib/http/route-handlers';
import { fork } from '@/lib/sessions/service';

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = routeHandlers(
  '/api/sessions/{id}/fork',
  {
    POST: async (request, { params }: RouteContext<'/api/sessions/[id]/fork'>) =>
      Response.json(
        { session: await fork(await getDb(), request, (await params).id) },
        { status: 201 },
      ),
  },
);
