import { getDb } from '@/lib/db/client';
import { handled } from '@/lib/http/errors';
import { runWidgetAction } from '@/lib/sessions/widget-service';
import { toolSet } from '@/tools';

export const POST = handled(
  async (
    request: Request,
    { params }: RouteContext<'/api/sessions/[id]/widgets/[toolCallId]/actions'>,
  ) => {
    const { id, toolCallId } = await params;
    return Response.json(await runWidgetAction(await getDb(), request, id, toolCallId, toolSet));
  },
);
