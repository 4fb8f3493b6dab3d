import 'server-only';
import { issueApiToken } from '../auth/api-tokens';
import { rotateCookie } from '../auth/identity';
import { deleteApiToken, listApiTokens } from '../db/api-tokens';
import type { Db } from '../db/client';
import type { ApiTokenRow } from '../db/schema';
import { HttpError } from '../http/errors';
import { readJson } from '../http/read-json';
import { ID_PATTERN } from '../ids';
import {
  type ApiTokenList,
  type ApiTokenView,
  type CreatedApiToken,
  type CreateTokenBody,
  createTokenSchema,
} from '../protocol';
import { writer } from './access';

const MAX_BODY_BYTES = 1024;

function toView({ id, name, createdAt, lastUsedAt }: ApiTokenRow): ApiTokenView {
  return {
    id,
    name,
    createdAt: createdAt.toISOString(),
    lastUsedAt: lastUsedAt?.toISOString() ?? null,
  };
}

/**
 * The owner of a same-origin request riding on the browser's cookie. Credentials are managed
 * from the browser only, so a leaked API token can neither mint more nor lock its owner out.
 */
async function browserOwner(db: Db, request: Request): Promise<string> {
  const identity = await writer(db, request);
  if (identity.via !== 'cookie') {
    throw new HttpError(
      403,
      'cookie_required',
      'API tokens and the browser key are managed from the browser, not with an API token.',
    );
  }
  return identity.ownerId;
}

/** `POST /api/tokens`: a new named token; `bearer` is the only time the token is shown. */
export async function createToken(db: Db, request: Request): Promise<CreatedApiToken> {
  const ownerId = await browserOwner(db, request);
  const { name } = await readJson<CreateTokenBody>(request, createTokenSchema, MAX_BODY_BYTES);
  const { bearer, row } = await issueApiToken(db, ownerId, name);
  return { token: toView(row), bearer };
}

/** `GET /api/tokens`: the owner's tokens, newest first. */
export async function listTokens(db: Db, request: Request): Promise<ApiTokenList> {
  const ownerId = await browserOwner(db, request);
  return { tokens: (await listApiTokens(db, ownerId)).map(toView) };
}

/** `DELETE /api/tokens/:id`: the token stops working at once; 404 unless it is the owner's. */
export async function revokeToken(db: Db, request: Request, id: string): Promise<void> {
  const ownerId = await browserOwner(db, request);
  if (!ID_PATTERN.test(id) || !(await deleteApiToken(db, ownerId, id))) {
    throw new HttpError(404, 'not_found', 'No such token.');
  }
}

/** `POST /api/identity/rotate`: the owner's new cookie; every earlier one stops working. */
export async function rotateIdentity(db: Db, request: Request): Promise<string> {
  return rotateCookie(db, await browserOwner(db, request));
}
