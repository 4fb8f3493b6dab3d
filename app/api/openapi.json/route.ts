import { openApiDocument } from '@/lib/http/openapi';

export const GET = () => Response.json(openApiDocument());
