import { getDb } from '@/lib/db/client';
import { handled } from '@/lib/http/errors';
import { createToken, listTokens } from '@/lib/sessions/credentials-service';

export const GET = handled(async (request: Request) =>
  Response.json(await listTokens(await getDb(), request)),
);

export const POST = handled(async (request: Request) =>
  Response.json(await createToken(await getDb(), request), { status: 201 }),
);
