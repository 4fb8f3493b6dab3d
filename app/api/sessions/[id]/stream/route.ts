import { getDb } from '@/lib/db/client';
import { routeHandlers } from '@/lib/http/route-handlers';
import { resumeTurn } from '@/lib/sessions/stream-service';

// A reader follows the turn to its end, which may be minutes away.
export const maxDuration = 300;

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = routeHandlers(
  '/api/sessions/{id}/stream',
  {
    GET: async (request, { params }: RouteContext<'/api/sessions/[id]/stream'>) =>
      resumeTurn(await getDb(), request, (await params).id),
  },
);
