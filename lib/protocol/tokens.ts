/** The longest name an API token may have. */
export const MAX_TOKEN_NAME = 100;

/** An API token as its owner sees it: never the token itself, which only its hash keeps. */
export type ApiTokenView = {
  id: string;
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
};

/** `GET /api/tokens`: the owner's tokens, newest first. */
export type ApiTokenList = { tokens: ApiTokenView[] };

/** `POST /api/tokens`: the new token; `bearer` is the only time the token itself is shown. */
export type CreatedApiToken = { token: ApiTokenView; bearer: string };
