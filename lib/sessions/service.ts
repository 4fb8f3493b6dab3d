import { listModels } from '../agent/models';
import { type Identity, identify } from '../auth/identity';
import { isSameOrigin } from '../auth/origin';
import { type Action, permits, refusal } from '../auth/permissions';
import type { Db } from '../db/client';
import type { MessageRow, SessionRow } from '../db/schema';
import * as queries from '../db/sessions';
import { listWidgetStates } from '../db/widget-states';
import { publish } from '../events/session-events';
import { HttpError } from '../http/errors';
import { readJson } from '../http/read-json';
import { ID_PATTERN } from '../ids';
import { enforceRate } from '../limits';
import {
  MAX_PAGE,
  MAX_TITLE,
  type QuantaMessage,
  type SessionDetail,
  type SessionPage,
  type SessionView,
  type WidgetState,
} from '../protocol';

const DEFAULT_PAGE = 30;
const MAX_BODY_BYTES = 16 * 1024;

/** A turn mark older than this is from a server that died mid-turn (turns are far shorter). */
export const STALE_TURN_MS = 15 * 60_000;

export function toView(session: SessionRow, viewer: string | undefined): SessionView {
  return {
    id: session.id,
    title: session.title,
    model: session.model,
    visibility: session.visibility,
    createdAt: session.createdAt.toISOString(),
    updatedAt: session.updatedAt.toISOString(),
    // A mark older than a turn can last is from a server that died mid-turn: not running.
    turnActive:
      session.activeTurnId !== null &&
      (session.activeTurnStartedAt?.getTime() ?? 0) > Date.now() - STALE_TURN_MS,
    isOwner: viewer === session.ownerId,
  };
}

/** Who sent `request`, from its API token or its cookie; each one's requests count to its limit. */
export async function requester(db: Db, request: Request): Promise<Identity | undefined> {
  const identity = await identify(db, request.headers);
  if (identity) await enforceRate('requestsPerMinute', identity.ownerId);
  return identity;
}

/** The requester of a state-changing request: known, and (when riding on a cookie) same-origin. */
export async function writer(db: Db, request: Request): Promise<Identity> {
  const identity = await requester(db, request);
  if (!identity)
    throw new HttpError(401, 'unauthenticated', 'Sign in with the cookie or a bearer token.');
  if (identity.via === 'cookie' && !isSameOrigin(request.headers)) {
    throw new HttpError(403, 'cross_origin', 'Cross-origin requests may not change sessions.');
  }
  return identity;
}

/** The session `id` if `viewer` may do `action` with it; otherwise the refusal it deserves. */
export async function authorize(
  db: Db,
  id: string,
  viewer: string | undefined,
  action: Action,
): Promise<SessionRow> {
  const session = ID_PATTERN.test(id) ? await queries.getSession(db, id) : undefined;
  if (!session || !permits(session, viewer, 'read')) throw notFound();
  if (!permits(session, viewer, action)) {
    throw new HttpError(refusal(session), 'forbidden', 'Only the owner can change this session.');
  }
  return session;
}

function notFound(): HttpError {
  return new HttpError(404, 'not_found', 'No such session.');
}

export async function listMine(db: Db, request: Request): Promise<SessionPage> {
  const identity = await requester(db, request);
  if (!identity)
    throw new HttpError(401, 'unauthenticated', 'Sign in with the cookie or a bearer token.');
  const params = new URL(request.url).searchParams;
  const limit = Number(params.get('limit') ?? DEFAULT_PAGE);
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE) {
    throw new HttpError(400, 'invalid_input', `limit: must be an integer from 1 to ${MAX_PAGE}`);
  }
  const cursor = params.get('cursor');
  const page = await queries.listSessions(db, identity.ownerId, {
    limit,
    after: cursor === null ? undefined : decodeCursor(cursor),
  });
  return {
    sessions: page.sessions.map((session) => toView(session, identity.ownerId)),
    nextCursor: page.next ? encodeCursor(page.next) : null,
  };
}

const titleSchema = { type: 'string', minLength: 1, maxLength: MAX_TITLE };
const modelSchema = { type: ['string', 'null'], maxLength: 200 };

export const createSchema = {
  type: 'object',
  properties: { title: titleSchema, model: modelSchema },
  additionalProperties: false,
};

/** A session may only be set to a model this server offers (null: the default). */
async function checkModel(model: string | null | undefined): Promise<void> {
  if (typeof model !== 'string') return;
  const { models } = await listModels();
  if (!models.some((offered) => offered.id === model)) {
    const ids = models.map((offered) => offered.id).join(', ');
    throw new HttpError(400, 'unknown_model', `No model "${model}" here. Offered: ${ids}.`);
  }
}

export async function create(db: Db, request: Request): Promise<SessionView> {
  const identity = await writer(db, request);
  const body = await readJson<{ title?: string; model?: string | null }>(
    request,
    createSchema,
    MAX_BODY_BYTES,
  );
  await checkModel(body.model);
  await enforceRate('sessionsPerMinute', identity.ownerId);
  const session = await queries.createSession(db, { ownerId: identity.ownerId, ...body });
  return toView(session, identity.ownerId);
}

export async function read(db: Db, request: Request, id: string): Promise<SessionDetail> {
  return readAs(db, id, (await requester(db, request))?.ownerId);
}

/** A stored message as the AI SDK and the UI know it. */
export function toMessage({ id, role, parts, metadata }: MessageRow): QuantaMessage {
  return metadata === null ? { id, role, parts } : { id, role, parts, metadata };
}

/** A session and its transcript as `viewer` may see them (throws 404 when they may not). */
export async function readAs(
  db: Db,
  id: string,
  viewer: string | undefined,
): Promise<SessionDetail> {
  const session = await authorize(db, id, viewer, 'read');
  const [messages, states] = await Promise.all([
    queries.listMessages(db, session.id),
    listWidgetStates(db, session.id),
  ]);
  return {
    session: toView(session, viewer),
    messages: messages.map(toMessage),
    widgetStates: Object.fromEntries(
      states.map(({ toolCallId, data, version }): [string, WidgetState] => [
        toolCallId,
        { data, version },
      ]),
    ),
  };
}

export const patchSchema = {
  type: 'object',
  properties: {
    title: titleSchema,
    model: modelSchema,
    visibility: { enum: ['private', 'public'] },
  },
  additionalProperties: false,
  minProperties: 1,
};

export async function update(db: Db, request: Request, id: string): Promise<SessionView> {
  const identity = await writer(db, request);
  await authorize(db, id, identity.ownerId, 'write');
  const patch = await readJson<queries.SessionPatch>(request, patchSchema, MAX_BODY_BYTES);
  await checkModel(patch.model);
  const session = await queries.updateSession(db, id, patch);
  if (!session) throw notFound();
  // Readers' event streams end at once when the link is made private, not at their next check.
  if (patch.visibility) publish(id, { type: 'visibility', visibility: patch.visibility });
  return toView(session, identity.ownerId);
}

export async function remove(db: Db, request: Request, id: string): Promise<void> {
  const identity = await writer(db, request);
  await authorize(db, id, identity.ownerId, 'write');
  await queries.deleteSession(db, id);
  publish(id, { type: 'deleted' });
}

export async function fork(db: Db, request: Request, id: string): Promise<SessionView> {
  const identity = await writer(db, request);
  const source = await authorize(db, id, identity.ownerId, 'fork');
  await enforceRate('sessionsPerMinute', identity.ownerId);
  return toView(await queries.forkSession(db, source, identity.ownerId), identity.ownerId);
}

function encodeCursor(cursor: queries.SessionCursor): string {
  return Buffer.from(`${cursor.updatedAt.toISOString()} ${cursor.id}`).toString('base64url');
}

// The shape encodeCursor writes: a time no database refuses, and an id of ours.
const CURSOR = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z) ([A-Za-z0-9_-]{22})$/;

function decodeCursor(value: string): queries.SessionCursor {
  const [, time = '', id = ''] = CURSOR.exec(Buffer.from(value, 'base64url').toString()) ?? [];
  const updatedAt = new Date(time);
  // A date that does not exist (2026-02-31) is moved by Date, so it must round-trip; years
  // before 1970 are no session's, and year 0 is one PostgreSQL refuses.
  if (!(updatedAt.getTime() >= 0) || updatedAt.toISOString() !== time) {
    throw new HttpError(400, 'invalid_input', 'cursor: is not one this server issued');
  }
  return { updatedAt, id };
}
