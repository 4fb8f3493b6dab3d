import type { QuantaMessage } from './messages';
import type { WidgetState } from './widgets';

/** Who may read a session: its owner only, or anyone with the link. */
export type Visibility = 'private' | 'public';

/** The longest title a session may have. */
export const MAX_TITLE = 200;

/** The most sessions one page of `GET /api/sessions` may hold. */
export const MAX_PAGE = 100;

/** How many of a session's newest messages its page shows, and a page of earlier ones holds. */
export const MESSAGE_PAGE = 50;

/** The most messages one page of `GET /api/sessions/:id/messages` may hold. */
export const MAX_MESSAGE_PAGE = 200;

/** A session as a viewer sees it: never the owner's id, but whether the viewer is the owner. */
export type SessionView = {
  id: string;
  title: string;
  model: string | null;
  visibility: Visibility;
  createdAt: string;
  updatedAt: string;
  turnActive: boolean;
  isOwner: boolean;
};

/** `GET /api/sessions`: a page of the owner's sessions; `nextCursor` asks for the next one. */
export type SessionPage = { sessions: SessionView[]; nextCursor: string | null };

/** `POST /api/sessions`, `PATCH /api/sessions/:id`, `POST /api/sessions/:id/fork`. */
export type SessionResponse = { session: SessionView };

/**
 * `GET /api/sessions/:id`: a session and its transcript (all of it, or its newest `?limit=`
 * messages), as the viewer may see them.
 */
export type SessionDetail = {
  session: SessionView;
} & MessagePage;

/**
 * `GET /api/sessions/:id/messages?before=`: messages in order, oldest first, with the states of
 * the widgets they (and the session) opened.
 */
export type MessagePage = {
  messages: QuantaMessage[];
  /** Older messages come before the first of these. */
  hasEarlier: boolean;
  /** The latest state of each widget that was acted on, by state key. */
  widgetStates: Record<string, WidgetState>;
};

/** `POST /api/sessions/:id/stop`: false when no turn of the session runs on this server. */
export type StopResponse = { stopped: boolean };
