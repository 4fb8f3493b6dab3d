import type { SessionView } from '@/lib/protocol';

/** A session as the API shows it to its owner, with what a test cares about changed. */
export function sessionView(changes: Partial<SessionView> = {}): SessionView {
  return {
    id: 's1',
    title: 'Test',
    model: null,
    visibility: 'private',
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    turnActive: false,
    isOwner: true,
    ...changes,
  };
}
