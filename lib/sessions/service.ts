import 'server-only';
import { listModels } from '../agent/models';
import { settledParts } from '../agent/turn-message';
import type { Db } from '../db/client';
import { listMessagePage, messagePosition } from '../db/messages';
import type { SessionRow } from '../db/schema';
import {
  createSession,
  deleteSession,
  forkSession,
  listSessions,
  type SessionCursor,
  updateSession,
} from '../db/sessions';
import { listWidgetStatesOf } from '../db/widget-states';
import { withAnswer } from '../db/with-answer';
import { publish } from '../events/session-events';
import { HttpError } from '../http/errors';
import { readJson } from '../http/read-json';
import { ID_PATTERN } from '../ids';
import { enforceRate } from '../limits';
import {
  type CreateSessionBody,
  createSessionSchema,
  MAX_MESSAGE_PAGE,
  MAX_PAGE,
  MESSAGE_PAGE,
  type MessagePage,
  type PatchSessionBody,
  patchSessionSchema,
  type QuantaMessage,
  type SessionDetail,
  type SessionPage,
  type SessionView,
  type WidgetState,
} from '../protocol';
import { authorize, noSuchSession, requester, writer } from './access';
import { answerSoFar } from './answer-so-far';
import { closeIfDead } from './dead-turns';
import { endRunningTurn } from './end-turn';
import { toMessage, toView } from './views';

const DEFAULT_PAGE = 30;
const MAX_BODY_BYTES = 16 * 1024;

export async function listMine(db: Db, request: Request): Promise<SessionPage> {
  const identity = await requester(db, request);
  if (!identity)
    throw new HttpError(401, 'unauthenticated', 'Sign in with the cookie or a bearer token.');
  const params = new URL(request.url).searchParams;
  const limit = pageLimit(params.get('limit') ?? String(DEFAULT_PAGE), MAX_PAGE);
  const cursor = params.get('cursor');
  const page = await listSessions(db, identity.ownerId, {
    limit,
    after: cursor === null ? undefined : decodeCursor(cursor),
  });
  return {
    sessions: page.sessions.map((session) => toView(session, identity.ownerId)),
    nextCursor: page.next ? encodeCursor(page.next) : null,
  };
}

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
  const body = await readJson<CreateSessionBody>(request, createSessionSchema, MAX_BODY_BYTES);
  await checkModel(body.model);
  await enforceRate('sessionsPerMinute', identity.ownerId);
  const session = await createSession(db, { ownerId: identity.ownerId, ...body });
  return toView(session, identity.ownerId);
}

export async function read(db: Db, request: Request, id: string): Promise<SessionDetail> {
  const limit = new URL(request.url).searchParams.get('limit');
  const viewer = (await requester(db, request))?.ownerId;
  return readAs(db, id, viewer, limit === null ? undefined : pageLimit(limit, MAX_MESSAGE_PAGE));
}

/**
 * A session and its transcript as `viewer` may see them (throws 404 when they may not): every
 * message, or the newest `limit`, with a running turn's answer so far.
 */
export async function readAs(
  db: Db,
  id: string,
  viewer: string | undefined,
  limit?: number,
): Promise<SessionDetail> {
  let session = await authorize(db, id, viewer, 'read');
  // A turn whose server died is closed first, so its interrupted answer is in the transcript.
  if (await closeIfDead(db, session)) session = await authorize(db, id, viewer, 'read');
  const page = await messagePage(db, session, { limit });
  return { session: toView(session, viewer), ...(await withWidgetStates(db, session.id, page)) };
}

/**
 * `GET /api/sessions/:id/messages?before=&limit=`: the messages before `before` (the newest
 * when absent, with a running turn's answer so far), `limit` of them (default MESSAGE_PAGE), for
 * whoever may read the session.
 */
export async function readMessages(db: Db, request: Request, id: string): Promise<MessagePage> {
  const params = new URL(request.url).searchParams;
  const before = params.get('before') ?? undefined;
  if (before !== undefined && !ID_PATTERN.test(before)) {
    throw new HttpError(400, 'invalid_input', 'before: must be a message id');
  }
  const limit = pageLimit(params.get('limit') ?? String(MESSAGE_PAGE), MAX_MESSAGE_PAGE);
  const session = await authorize(db, id, (await requester(db, request))?.ownerId, 'read');
  const page = await messagePage(db, session, { before, limit });
  // No page before a message the session does not hold: only then is it looked for alone.
  if (
    before !== undefined &&
    page.messages.length === 0 &&
    (await messagePosition(db, session.id, before)) === undefined
  ) {
    throw new HttpError(404, 'message_not_found', 'No such message in this session.');
  }
  return withWidgetStates(db, session.id, page);
}

type Page = { messages: QuantaMessage[]; hasEarlier: boolean };

/**
 * A page of the session's stored messages (see `listMessagePage`); the newest, with no `before`,
 * ends where a running turn writes: with its answer so far.
 */
async function messagePage(
  db: Db,
  session: SessionRow,
  query: { before?: string; limit?: number },
): Promise<Page> {
  const [page, answer] = await Promise.all([
    listMessagePage(db, session.id, query),
    query.before === undefined ? answerSoFar(db, session) : undefined,
  ]);
  return { messages: withAnswer(page.rows.map(toMessage), answer), hasEarlier: page.hasEarlier };
}

/** A page of messages as the viewer gets it, with the widget states it needs. */
async function withWidgetStates(db: Db, sessionId: string, page: Page): Promise<MessagePage> {
  const toolCallIds = page.messages.flatMap(({ parts }) =>
    parts.flatMap((part) =>
      'toolCallId' in part && typeof part.toolCallId === 'string' ? [part.toolCallId] : [],
    ),
  );
  const states = await listWidgetStatesOf(db, sessionId, toolCallIds);
  return {
    messages: page.messages,
    hasEarlier: page.hasEarlier,
    widgetStates: Object.fromEntries(
      states.map(({ toolCallId, data, version }): [string, WidgetState] => [
        toolCallId,
        { data, version },
      ]),
    ),
  };
}

/** A page size from the query: an integer from 1 to `max` (400 otherwise). */
function pageLimit(value: string, max: number): number {
  const limit = Number(value);
  if (!/^\d+$/.test(value) || limit < 1 || limit > max) {
    throw new HttpError(400, 'invalid_input', `limit: must be an integer from 1 to ${max}`);
  }
  return limit;
}

export async function update(db: Db, request: Request, id: string): Promise<SessionView> {
  const identity = await writer(db, request);
  await authorize(db, id, identity.ownerId, 'write');
  const patch = await readJson<PatchSessionBody>(request, patchSessionSchema, MAX_BODY_BYTES);
  await checkModel(patch.model);
  const session = await updateSession(db, id, patch);
  if (!session) throw noSuchSession();
  // Readers' event streams end at once when the link is made private, not at their next check.
  if (patch.visibility) publish(id, { type: 'visibility', visibility: patch.visibility });
  return toView(session, identity.ownerId);
}

export async function remove(db: Db, request: Request, id: string): Promise<void> {
  const identity = await writer(db, request);
  const session = await authorize(db, id, identity.ownerId, 'write');
  await deleteSession(db, id);
  // A turn left running would go on paying for the model's answer, with nowhere to keep it.
  endRunningTurn(session);
  publish(id, { type: 'deleted' });
}

export async function fork(db: Db, request: Request, id: string): Promise<SessionView> {
  const identity = await writer(db, request);
  const source = await authorize(db, id, identity.ownerId, 'fork');
  await enforceRate('sessionsPerMinute', identity.ownerId);
  // A turn whose server died is closed first, as a read closes it: its answer is then stored.
  const answer = (await closeIfDead(db, source)) ? undefined : await answerSoFar(db, source);
  // The copy of a running turn's answer ends where the fork was made, as if stopped there.
  const copied = answer && {
    turnId: source.activeTurnId as string,
    id: answer.id,
    parts: settledParts(answer.parts),
    metadata: { ...answer.metadata, status: 'stopped' as const },
  };
  return toView(await forkSession(db, source, identity.ownerId, copied), identity.ownerId);
}

function encodeCursor(cursor: SessionCursor): string {
  return Buffer.from(`${cursor.updatedAt.toISOString()} ${cursor.id}`).toString('base64url');
}

// The shape encodeCursor writes: a time no database refuses, and an id of ours.
const CURSOR = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z) ([A-Za-z0-9_-]{22})$/;

function decodeCursor(value: string): SessionCursor {
  const [, time = '', id = ''] = CURSOR.exec(Buffer.from(value, 'base64url').toString()) ?? [];
  const updatedAt = new Date(time);
  // A date that does not exist (2026-02-31) is moved by Date, so it must round-trip; years
  // before 1970 are no session's, and year 0 is one PostgreSQL refuses.
  if (!(updatedAt.getTime() >= 0) || updatedAt.toISOString() !== time) {
    throw new HttpError(400, 'invalid_input', 'cursor: is not one this server issued');
  }
  return { updatedAt, id };
}
