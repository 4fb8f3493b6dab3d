import { getDb } from '@/lib/db/client';
import { handled } from '@/lib/http/errors';
import { resumeTurn } from '@/lib/sessions/stream-service';

// A reader follows the turn to its end, which may be minutes away.
export const maxDuration = 300;

export const GET = handled(
  async (request: Request, { params }: RouteContext<'/api/sessions/[id]/stream'>) =>
    resumeTurn(await getDb(), request, (await params).id),
);
