// Shapes the session API returns; shared by route handlers and the React UI (types only).
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
