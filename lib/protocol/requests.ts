import type { Visibility } from './sessions';
import { MAX_TITLE } from './sessions';
import { MAX_TOKEN_NAME } from './tokens';

// The request bodies the API accepts: a JSON Schema each (the server validates with it, the
// OpenAPI document publishes it) and the type a client builds. Plain data: no validator here.

/** The longest text one message part may carry. */
export const MAX_MESSAGE_TEXT = 32_000;

const title = { type: 'string', minLength: 1, maxLength: MAX_TITLE } as const;
const model = { type: ['string', 'null'], maxLength: 200 } as const;

/** `POST /api/sessions`. */
export type CreateSessionBody = { title?: string; model?: string | null };
export const createSessionSchema = {
  type: 'object',
  properties: { title, model },
  additionalProperties: false,
} as const;

/** `PATCH /api/sessions/:id`: at least one field. */
export type PatchSessionBody = { title?: string; model?: string | null; visibility?: Visibility };
export const patchSessionSchema = {
  type: 'object',
  properties: { title, model, visibility: { enum: ['private', 'public'] } },
  additionalProperties: false,
  minProperties: 1,
} as const;

/**
 * `POST /api/sessions/:id/messages`. submit (the default): a new message; edit: `message.id`
 * names a stored user message that is replaced, everything after it dropped; regenerate: the
 * last answer is dropped and written again.
 */
export type PostMessageBody = {
  trigger?: 'submit' | 'edit' | 'regenerate';
  message?: { id?: string; role: 'user'; parts: { type: 'text'; text: string }[] };
};
export const postMessageSchema = {
  type: 'object',
  properties: {
    trigger: { enum: ['submit', 'edit', 'regenerate'] },
    message: {
      type: 'object',
      properties: {
        // A client's own id is kept when it is one of ours (22 URL-safe characters, 128 random
        // bits) and unused, so the client can name the message later (edit); else the server
        // names it. Client metadata is accepted and ignored.
        id: { type: 'string', maxLength: 200 },
        role: { const: 'user' },
        metadata: {},
        parts: {
          type: 'array',
          minItems: 1,
          maxItems: 20,
          items: {
            type: 'object',
            properties: {
              type: { const: 'text' },
              text: { type: 'string', pattern: '\\S', maxLength: MAX_MESSAGE_TEXT },
            },
            required: ['type', 'text'],
          },
        },
      },
      required: ['role', 'parts'],
      additionalProperties: false,
    },
  },
  additionalProperties: false,
} as const;

/** `POST /api/sessions/:id/widgets/:toolCallId/actions`. */
export type WidgetActionBody = { action: string; args?: Record<string, unknown>; version: number };
export const widgetActionSchema = {
  type: 'object',
  properties: {
    action: { type: 'string', minLength: 1, maxLength: 100 },
    args: { type: 'object' },
    // The version the client last saw: an action on older data is refused (409).
    version: { type: 'integer', minimum: 0 },
  },
  required: ['action', 'version'],
  additionalProperties: false,
} as const;

/** `POST /api/tokens`. */
export type CreateTokenBody = { name: string };
export const createTokenSchema = {
  type: 'object',
  properties: { name: { type: 'string', minLength: 1, maxLength: MAX_TOKEN_NAME } },
  required: ['name'],
  additionalProperties: false,
} as const;
