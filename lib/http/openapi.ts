import {
  widgetActionSchema as actionSchema,
  MAX_MESSAGE_PAGE,
  MAX_PAGE,
  MESSAGE_PAGE,
  postMessageSchema as newMessage,
  createSessionSchema as newSession,
  createTokenSchema as newToken,
  patchSessionSchema as patchSchema,
} from '../protocol';
import { API_ROUTES, type ApiRoute } from './api-routes';

/**
 * Who may call an operation: anyone; an owner by cookie or API token; anyone for a public
 * session and its owner otherwise; or only the browser's cookie (credentials are managed from
 * the browser).
 */
type Access = 'anyone' | 'owner' | 'reader' | 'browser';

type Operation = {
  summary: string;
  access: Access;
  /** The JSON Schema the handler validates its body with: that very object, never a copy. */
  body?: object;
  query?: { name: string; description: string; schema: object }[];
  ok: {
    status: 200 | 201 | 204;
    description: string;
    /** The media type of the answer; JSON when unsaid, nothing for a 204. */
    type?: 'text/event-stream';
  };
};

/** Every method of every route in the table, and only those (the type checks it). */
type Operations = { [R in ApiRoute as R['path']]: { [M in R['methods'][number]]: Operation } };

const OPERATIONS: Operations = {
  '/api/identity/rotate': {
    POST: {
      summary: 'Rotate the identity cookie: a new one is set and every earlier one stops working',
      access: 'browser',
      ok: { status: 204, description: 'The new cookie is in Set-Cookie.' },
    },
  },
  '/api/models': {
    GET: {
      summary: 'The models this server offers, and the default',
      access: 'anyone',
      ok: { status: 200, description: '`{ models: [{ id, label, demo }], defaultId }`' },
    },
  },
  '/api/openapi.json': {
    GET: {
      summary: 'This document',
      access: 'anyone',
      ok: { status: 200, description: 'The OpenAPI 3.1 description of the API.' },
    },
  },
  '/api/sessions': {
    GET: {
      summary: 'My sessions, newest first',
      access: 'owner',
      query: [
        {
          name: 'limit',
          description: 'How many (default 30).',
          schema: { type: 'integer', minimum: 1, maximum: MAX_PAGE },
        },
        {
          name: 'cursor',
          description: 'The `nextCursor` of the page before.',
          schema: { type: 'string' },
        },
      ],
      ok: { status: 200, description: '`{ sessions, nextCursor }`' },
    },
    POST: {
      summary: 'Create a session',
      access: 'owner',
      body: newSession,
      ok: { status: 201, description: '`{ session }`' },
    },
  },
  '/api/sessions/{id}': {
    GET: {
      summary: 'A session with its messages (all, or the newest `limit`) and widget states',
      access: 'reader',
      query: [
        {
          name: 'limit',
          description: 'Only the newest this many messages (default: all).',
          schema: { type: 'integer', minimum: 1, maximum: MAX_MESSAGE_PAGE },
        },
      ],
      ok: {
        status: 200,
        description:
          '`{ session, messages, hasEarlier, widgetStates }`: `hasEarlier` when messages before the first one were left out.',
      },
    },
    PATCH: {
      summary: "Change a session's title, model or visibility",
      access: 'owner',
      body: patchSchema,
      ok: { status: 200, description: '`{ session }`' },
    },
    DELETE: {
      summary: 'Delete a session with its messages',
      access: 'owner',
      ok: { status: 204, description: 'Deleted.' },
    },
  },
  '/api/sessions/{id}/events': {
    GET: {
      summary: "A session's live events, for every viewer",
      access: 'reader',
      ok: {
        status: 200,
        type: 'text/event-stream',
        description:
          "Server-sent events: `{ type: 'turn', status }`, `{ type: 'widget', toolCallId, data, version }` and `{ type: 'visibility', visibility }`. A reader's stream ends when the session is made private or deleted.",
      },
    },
  },
  '/api/sessions/{id}/fork': {
    POST: {
      summary: 'Copy a session I can read into a new private one of mine',
      access: 'owner',
      ok: { status: 201, description: '`{ session }`' },
    },
  },
  '/api/sessions/{id}/messages': {
    GET: {
      summary: 'A page of the transcript: the messages before one, oldest first',
      access: 'reader',
      query: [
        {
          name: 'before',
          description: 'A message id: the page ends just before it (default: the newest messages).',
          schema: { type: 'string' },
        },
        {
          name: 'limit',
          description: `How many (default ${MESSAGE_PAGE}).`,
          schema: { type: 'integer', minimum: 1, maximum: MAX_MESSAGE_PAGE },
        },
      ],
      ok: {
        status: 200,
        description:
          '`{ messages, hasEarlier, widgetStates }`: `hasEarlier` when older messages remain; the states of the widgets those messages opened. 404 when `before` is no message of the session.',
      },
    },
    POST: {
      summary:
        "Send a message (or edit one, or regenerate the last answer) and run the model's turn",
      access: 'owner',
      body: newMessage,
      ok: {
        status: 200,
        type: 'text/event-stream',
        description: "The turn as the AI SDK's UI message stream; 409 while another turn runs.",
      },
    },
  },
  '/api/sessions/{id}/stop': {
    POST: {
      summary: 'End the running turn wherever it runs, keeping what it produced',
      access: 'owner',
      ok: { status: 200, description: '`{ stopped }`' },
    },
  },
  '/api/sessions/{id}/stream': {
    GET: {
      summary: 'Read the running turn: replayed from its start (or `?after=N`), then live',
      access: 'reader',
      ok: {
        status: 200,
        type: 'text/event-stream',
        description:
          "The running turn as the AI SDK's UI message stream, from its first chunk or from the one after chunk number `after`, until it ends; 204 when no turn runs.",
      },
    },
  },
  '/api/sessions/{id}/widgets/{toolCallId}/actions': {
    POST: {
      summary: 'Run an action of the widget a tool call opened',
      access: 'owner',
      body: actionSchema,
      ok: {
        status: 200,
        description: '`{ data, version }`; 409 with the current state when `version` is stale.',
      },
    },
  },
  '/api/tokens': {
    GET: {
      summary: 'My API tokens (never the tokens themselves)',
      access: 'browser',
      ok: { status: 200, description: '`{ tokens: [{ id, name, createdAt, lastUsedAt }] }`' },
    },
    POST: {
      summary: 'Create a named API token',
      access: 'browser',
      body: newToken,
      ok: { status: 201, description: '`{ token, bearer }`: `bearer` is shown this once only.' },
    },
  },
  '/api/tokens/{id}': {
    DELETE: {
      summary: 'Revoke an API token',
      access: 'browser',
      ok: { status: 204, description: 'Revoked: it stops working at once.' },
    },
  },
};

// OpenAPI: alternatives of security requirements; `{}` is "no credential needed".
const SECURITY: Record<Access, object[]> = {
  anyone: [],
  owner: [{ cookie: [] }, { bearer: [] }],
  reader: [{}, { cookie: [] }, { bearer: [] }],
  browser: [{ cookie: [] }],
};

function operation(spec: Operation): object {
  return {
    summary: spec.summary,
    security: SECURITY[spec.access],
    ...(spec.query && {
      parameters: spec.query.map((parameter) => ({ ...parameter, in: 'query', required: false })),
    }),
    ...(spec.body && {
      requestBody: { required: true, content: { 'application/json': { schema: spec.body } } },
    }),
    responses: {
      [spec.ok.status]: {
        description: spec.ok.description,
        ...(spec.ok.status !== 204 && {
          content: { [spec.ok.type ?? 'application/json']: {} },
        }),
      },
      '4XX': { $ref: '#/components/responses/Error' },
    },
  };
}

/** The path's `{name}` segments as OpenAPI path parameters. */
function pathParameters(path: string): object[] {
  return [...path.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({
    name,
    in: 'path',
    required: true,
    schema: { type: 'string' },
  }));
}

/**
 * The OpenAPI 3.1 description of every route in the route table, with the request schemas the
 * handlers themselves validate with.
 */
export function openApiDocument() {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Quanta',
      version: '1',
      description:
        'Agent chat sessions, their turns and their widgets. Every error is `{ error: { code, message } }` with a 4xx status.',
    },
    paths: Object.fromEntries(
      API_ROUTES.map((route) => {
        const operations: Record<string, Operation> = OPERATIONS[route.path];
        const parameters = pathParameters(route.path);
        return [
          route.path,
          {
            ...(parameters.length > 0 && { parameters }),
            ...Object.fromEntries(
              route.methods.map((method) => [
                method.toLowerCase(),
                operation(operations[method] as Operation),
              ]),
            ),
          },
        ];
      }),
    ),
    components: {
      securitySchemes: {
        cookie: {
          type: 'apiKey',
          in: 'cookie',
          name: 'quanta_id',
          description:
            "The browser's identity cookie, set on the first page view. A request that changes something with it must come from Quanta's own pages (Origin).",
        },
        bearer: {
          type: 'http',
          scheme: 'bearer',
          description: 'An API token (`qk_…`) made with `POST /api/tokens`.',
        },
      },
      schemas: {
        Error: {
          type: 'object',
          properties: {
            error: {
              type: 'object',
              properties: {
                code: { type: 'string' },
                message: { type: 'string' },
                current: { description: "The server's current state, when a client needs it." },
              },
              required: ['code', 'message'],
            },
          },
          required: ['error'],
        },
      },
      responses: {
        Error: {
          description: 'The request was refused.',
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
        },
      },
    },
  };
}
