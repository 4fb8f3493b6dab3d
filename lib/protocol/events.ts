import type { Visibility } from './sessions';

/** What a viewer of a session learns live (`GET /api/sessions/:id/events`). */
export type SessionEvent =
  | { type: 'turn'; status: 'started' | 'ended' }
  | { type: 'widget'; toolCallId: string; data: unknown; version: number }
  | { type: 'visibility'; visibility: Visibility }
  | { type: 'deleted' };
