import { expect, it } from 'vitest';
import { describeEachDatabase } from '@/tests/helpers/databases';
import { appendMessages, listMessages } from './messages';
import { createSession, deleteSession, getSession } from './sessions';

describeEachDatabase('message queries', (database) => {
  const db = () => database().db;

  it('appends messages in order and deletes a session with its messages', async () => {
    const session = await createSession(db(), { ownerId: 'owner-a' });
    await appendMessages(db(), session.id, [
      { role: 'user', parts: [{ type: 'text', text: 'hi' }] },
    ]);
    await appendMessages(db(), session.id, [
      {
        role: 'assistant',
        parts: [{ type: 'text', text: 'hello' }],
        metadata: { usage: { inputTokens: 3, outputTokens: 1 } },
      },
      { role: 'user', parts: [{ type: 'text', text: 'again' }] },
    ]);
    const stored = await listMessages(db(), session.id);
    expect(stored.map((m) => [m.position, m.role, m.parts])).toEqual([
      [0, 'user', [{ type: 'text', text: 'hi' }]],
      [1, 'assistant', [{ type: 'text', text: 'hello' }]],
      [2, 'user', [{ type: 'text', text: 'again' }]],
    ]);
    expect(stored[1]?.metadata).toEqual({ usage: { inputTokens: 3, outputTokens: 1 } });

    expect(await deleteSession(db(), session.id)).toBe(true);
    expect(await getSession(db(), session.id)).toBeUndefined();
    expect(await listMessages(db(), session.id)).toEqual([]);
    expect(await deleteSession(db(), session.id)).toBe(false);
  });
});
