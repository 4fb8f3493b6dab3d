import { getDb } from '@/lib/db/client';
import { handled } from '@/lib/http/errors';
import { create, listMine } from '@/lib/sessions/service';

export const GET = handled(async (request: Request) =>
  Response.json(await listMine(await getDb(), request)),
);

export const POST = handled(async (request: Request) =>
  Response.json({ session: await create(await getDb(), request) }, { status: 201 }),
);
