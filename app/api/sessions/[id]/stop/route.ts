import { getDb } from '@/lib/db/client';
import { handled } from '@/lib/http/errors';
import { stop } from '@/lib/sessions/turn-service';

export const POST = handled(
  async (request: Request, { params }: RouteContext<'/api/sessions/[id]/stop'>) =>
    Response.json(await stop(await getDb(), request, (await params).id)),
);
