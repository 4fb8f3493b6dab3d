import { listModels } from '@/lib/agent/models';
import { handled } from '@/lib/http/errors';

export const GET = handled(async () => Response.json(await listModels()));
