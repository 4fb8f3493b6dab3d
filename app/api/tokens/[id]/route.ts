import { getDb } from '@/lib/db/client';
import { handled } from '@/lib/http/errors';
import { revokeToken } from '@/lib/sessions/credentials-service';

export const DELETE = handled(
  async (request: Request, { params }: RouteContext<'/api/tokens/[id]'>) => {
    await revokeToken(await getDb(), request, (await params).id);
    return new Response(null, { status: 204 });
  },
);
