import { getDb } from '@/lib/db/client';
import { handled } from '@/lib/http/errors';
import { openEvents } from '@/lib/sessions/events-service';

// A live stream: never cached, never rendered at build time.
export const dynamic = 'force-dynamic';

export const GET = handled(
  async (request: Request, { params }: RouteContext<'/api/sessions/[id]/events'>) =>
    openEvents(await getDb(), request, (await params).id),
);
