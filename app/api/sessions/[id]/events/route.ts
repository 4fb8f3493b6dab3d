import { getDb } from '@/lib/db/client';
import { routeHandlers } from '@/lib/http/route-handlers';
import { openEvents } from '@/lib/sessions/events-service';

// A live stream: never cached, never rendered at build time.
export const dynamic = 'force-dynamic';

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = routeHandlers(
  '/api/sessions/{id}/events',
  {
    GET: async (request, { params }: RouteContext<'/api/sessions/[id]/events'>) =>
      openEvents(await getDb(), request, (await params).id),
  },
);
