import { describe, expect, it } from 'vitest';
import {
  widgetActionSchema as actionSchema,
  postMessageSchema as newMessage,
  createSessionSchema as newSession,
  createTokenSchema as newToken,
  patchSessionSchema as patchSchema,
} from '../protocol';
import { API_ROUTES } from './api-routes';
import { openApiDocument } from './openapi';

type Document = ReturnType<typeof openApiDocument>;
type OperationObject = {
  security: object[];
  parameters?: { name: string; in: string }[];
  requestBody?: { content: { 'application/json': { schema: object } } };
  responses: Record<string, unknown>;
};
type PathItem = { parameters?: { name: string; in: string; required: boolean }[] } & Record<
  string,
  OperationObject
>;

const document: Document = openApiDocument();
const paths = document.paths as Record<string, PathItem>;
const operation = (path: string, method: string) => paths[path]?.[method] as OperationObject;

describe('the OpenAPI document', () => {
  it('is OpenAPI 3.1', () => {
    expect(document.openapi).toBe('3.1.0');
  });

  it('describes exactly the routes of the route table, with their methods', () => {
    const described = Object.entries(paths).map(([path, item]) => ({
      path,
      methods: Object.keys(item)
        .filter((key) => key !== 'parameters')
        .map((method) => method.toUpperCase()),
    }));
    expect(described).toEqual(
      API_ROUTES.map(({ path, methods }) => ({ path, methods: [...methods] })),
    );
  });

  it('gives each request body the very schema its handler validates with', () => {
    const expected: Record<string, object> = {
      'post /api/sessions': newSession,
      'patch /api/sessions/{id}': patchSchema,
      'post /api/sessions/{id}/messages': newMessage,
      'post /api/sessions/{id}/widgets/{toolCallId}/actions': actionSchema,
      'post /api/tokens': newToken,
    };
    const bodies = Object.fromEntries(
      API_ROUTES.flatMap(({ path, methods }) =>
        methods.flatMap((method) => {
          const name = `${method.toLowerCase()} ${path}`;
          const body = operation(path, method.toLowerCase()).requestBody;
          return body ? [[name, body.content['application/json'].schema]] : [];
        }),
      ),
    );
    expect(Object.keys(bodies).sort()).toEqual(Object.keys(expected).sort());
    // The same object, not an equal copy: what a route accepts and what the document says
    // cannot drift apart.
    for (const [name, schema] of Object.entries(bodies)) expect(schema, name).toBe(expected[name]);
  });

  it("declares each route's path parameters", () => {
    for (const { path } of API_ROUTES) {
      const names = [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]);
      expect(
        (paths[path]?.parameters ?? []).map((parameter) => [
          parameter.name,
          parameter.in,
          parameter.required,
        ]),
        path,
      ).toEqual(names.map((name) => [name, 'path', true]));
    }
  });

  it('answers every refusal with the common error body', () => {
    for (const { path, methods } of API_ROUTES) {
      for (const method of methods) {
        expect(operation(path, method.toLowerCase()).responses['4XX'], `${method} ${path}`).toEqual(
          {
            $ref: '#/components/responses/Error',
          },
        );
      }
    }
    expect(document.components.schemas.Error.properties.error.required).toEqual([
      'code',
      'message',
    ]);
  });

  it('names the credentials each operation takes', () => {
    expect(Object.keys(document.components.securitySchemes)).toEqual(['cookie', 'bearer']);
    expect(operation('/api/models', 'get').security).toEqual([]);
    expect(operation('/api/sessions', 'post').security).toEqual([{ cookie: [] }, { bearer: [] }]);
    expect(operation('/api/sessions/{id}', 'get').security).toEqual([
      {},
      { cookie: [] },
      { bearer: [] },
    ]);
    expect(operation('/api/tokens', 'post').security).toEqual([{ cookie: [] }]);
  });
});
