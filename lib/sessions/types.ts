// Shapes the session and token APIs return; shared by route handlers and the React UI.
import type { SessionRow } from '../db/schema';

/** A session as a viewer sees it: never the owner's id, but whether the viewer is the owner. */
export type SessionView = {
  id: string;
  title: string;
  model: string | null;
  visibility: SessionRow['visibility'];
  createdAt: string;
  updatedAt: string;
  turnActive: boolean;
  isOwner: boolean;
};

/** An API token as its owner sees it: never the token itself, which only its hash keeps. */
export type ApiTokenView = {
  id: string;
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
};

/** The longest name an API token may have. */
export const MAX_TOKEN_NAME = 100;
