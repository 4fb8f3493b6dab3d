import { getDb } from '@/lib/db/client';
import { routeHandlers } from '@/lib/http/route-handlers';
import { createToken, listTokens } from '@/lib/sessions/credentials-service';

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = routeHandlers('/api/tokens', {
  GET: async (request) => Response.json(await listTokens(await getDb(), request)),
  POST: async (request) =>
    Response.json(await createToken(await getDb(), request), { status: 201 }),
});
