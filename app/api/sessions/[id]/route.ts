import { getDb } from '@/lib/db/client';
import { routeHandlers } from '@/lib/http/route-handlers';
import { read, remove, update } from '@/lib/sessions/service';

type Context = RouteContext<'/api/sessions/[id]'>;

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = routeHandlers(
  '/api/sessions/{id}',
  {
    GET: async (request, { params }: Context) =>
      Response.json(await read(await getDb(), request, (await params).id)),
    PATCH: async (request, { params }: Context) =>
      Response.json({ session: await update(await getDb(), request, (await params).id) }),
    DELETE: async (request, { params }: Context) => {
      await remove(await getDb(), request, (await params).id);
      return new Response(null, { status: 204 });
    },
  },
);
