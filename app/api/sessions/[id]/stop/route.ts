import { getDb } from '@/lib/db/client';
import { handled } from '@/lib/http/errors';
import { stop } from '@/lib/sessions/turn-service';

type Context = { params: Promise<{ id: string }> };

export const POST = handled(async (request: Request, { params }: Context) =>
  Response.json(await stop(await getDb(), request, (await params).id)),
);
