import { expect, it } from 'vitest';
import { describeEachDatabase } from '@/tests/helpers/databases';
import { appendMessages, listMessages, replaceMessage, saveMessage } from './messages';
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

  it('replaces only a message that is there; saving appends one that is not', async () => {
    const db = database().db;
    const { id } = await createSession(db, { ownerId: 'owner-a' });
    const answer = { id: 'answer-1', role: 'assistant' as const, parts: [] };
    expect(await replaceMessage(db, id, answer)).toBe(false);
    expect(await listMessages(db, id)).toEqual([]);
    await saveMessage(db, id, answer);
    const text = [{ type: 'text' as const, text: 'Done.' }];
    expect(await replaceMessage(db, id, { ...answer, parts: text })).toBe(true);
    const stored = await listMessages(db, id);
    expect(stored.map(({ id, parts }) => ({ id, parts }))).toEqual([
      { id: 'answer-1', parts: text },
    ]);
  });
});
