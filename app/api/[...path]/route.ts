import { noRouteHandlers } from '@/lib/http/route-handlers';

// Every /api path no route has, answered in JSON as the routes answer.
export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = noRouteHandlers;
