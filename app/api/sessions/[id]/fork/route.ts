import { getDb } from '@/lib/db/client';
import { handled } from '@/lib/http/errors';
import { fork } from '@/lib/sessions/service';

export const POST = handled(
  async (request: Request, { params }: RouteContext<'/api/sessions/[id]/fork'>) =>
    Response.json(
      { session: await fork(await getDb(), request, (await params).id) },
      { status: 201 },
    ),
);
