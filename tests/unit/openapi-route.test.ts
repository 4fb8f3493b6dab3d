import { expect, it } from 'vitest';
import { GET } from '@/app/api/openapi.json/route';
import { openApiDocument } from '@/lib/http/openapi';
import { request } from '@/tests/helpers/routes';

it('GET /api/openapi.json serves the OpenAPI document as JSON', async () => {
  const response = await GET(request('GET', '/api/openapi.json'));
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('application/json');
  expect(await response.json()).toEqual(JSON.parse(JSON.stringify(openApiDocument())));
});
