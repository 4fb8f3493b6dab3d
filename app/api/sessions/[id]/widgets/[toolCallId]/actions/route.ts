import { getDb } from '@/lib/db/client';
import { routeHandlers } from '@/lib/http/route-handlers';
import { runWidgetAction } from '@/lib/sessions/widget-service';
import { toolSet } from '@/tools';

type Context = RouteContext<'/api/sessions/[id]/widgets/[toolCallId]/actions'>;

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = routeHandlers(
  '/api/sessions/{id}/widgets/{toolCallId}/actions',
  {
    POST: async (request, { params }: Context) => {
      const { id, toolCallId } = await params;
      return Response.json(await runWidgetAction(await getDb(), request, id, toolCallId, toolSet));
    },
  },
);
