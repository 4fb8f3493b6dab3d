import { getDb } from '@/lib/db/client';
import { routeHandlers } from '@/lib/http/route-handlers';
import { create, listMine } from '@/lib/sessions/service';

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = routeHandlers('/api/sessions', {
  GET: async (request) => Response.json(await listMine(await getDb(), request)),
  POST: async (request) =>
    Response.json({ session: await create(await getDb(), request) }, { status: 201 }),
});
