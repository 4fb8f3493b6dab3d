import { getDb } from '@/lib/db/client';
import { handled } from '@/lib/http/errors';
import { read, remove, update } from '@/lib/sessions/service';

type Context = RouteContext<'/api/sessions/[id]'>;

export const GET = handled(async (request: Request, { params }: Context) =>
  Response.json(await read(await getDb(), request, (await params).id)),
);

export const PATCH = handled(async (request: Request, { params }: Context) =>
  Response.json({ session: await update(await getDb(), request, (await params).id) }),
);

export const DELETE = handled(async (request: Request, { params }: Context) => {
  await remove(await getDb(), request, (await params).id);
  return new Response(null, { status: 204 });
});
