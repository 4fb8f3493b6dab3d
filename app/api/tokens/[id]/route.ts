import { getDb } from '@/lib/db/client';
import { routeHandlers } from '@/lib/http/route-handlers';
import { revokeToken } from '@/lib/sessions/credentials-service';

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = routeHandlers('/api/tokens/{id}', {
  DELETE: async (request, { params }: RouteContext<'/api/tokens/[id]'>) => {
    await revokeToken(await getDb(), request, (await params).id);
    return new Response(null, { status: 204 });
  },
});
