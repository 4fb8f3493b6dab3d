import { after } from 'next/server';
import { getDb } from '@/lib/db/client';
import { routeHandlers } from '@/lib/http/route-handlers';
import { readMessages } from '@/lib/sessions/service';
import { postMessage } from '@/lib/sessions/turn-service';
import { demoIntents, toolSet } from '@/tools';

type Context = RouteContext<'/api/sessions/[id]/messages'>;

// A turn may run for minutes of tool calls; hosts with a limit (Vercel) honour this one.
export const maxDuration = 300;

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = routeHandlers(
  '/api/sessions/{id}/messages',
  {
    GET: async (request, { params }: Context) =>
      Response.json(await readMessages(await getDb(), request, (await params).id)),
    POST: async (request, { params }: Context) => {
      const turn = await postMessage(
        await getDb(),
        request,
        (await params).id,
        toolSet,
        demoIntents,
      );
      // A host that freezes a function once its response is sent (Vercel) lets the turn finish.
      after(turn.finished);
      return turn.response;
    },
  },
);
