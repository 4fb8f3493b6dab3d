import type { LanguageModelV3Prompt } from '@ai-sdk/provider';
import { eq } from 'drizzle-orm';
import { beforeAll, beforeEach, expect, it, vi } from 'vitest';
import * as messagesRoute from '@/app/api/sessions/[id]/messages/route';
import * as sessionsRoute from '@/app/api/sessions/route';
import { appendMessages, listMessages } from '@/lib/db/messages';
import { type MessageRow, messages } from '@/lib/db/schema';
import { newId } from '@/lib/ids';
import { describeEachDatabase } from '@/tests/helpers/databases';
import { recordingModel, turnModel } from '@/tests/helpers/recording-model';
import { type Caller, params, request, useDatabase } from '@/tests/helpers/routes';

process.env.QUANTA_SECRET = 'test-secret';

vi.mock('@/lib/agent/models', async (importOriginal) =>
  (await import('@/tests/helpers/recording-model')).withTurnModel(
    importOriginal<typeof import('@/lib/agent/models')>,
  ),
);

/** The text of each message the model was given, the system prompt left out. */
function conversation(prompt: LanguageModelV3Prompt | undefined): string[] {
  return (prompt ?? []).flatMap((message) =>
    message.role === 'system'
      ? []
      : [
          message.content
            .map((part) => (part.type === 'text' ? part.text : ''))
            .filter((text) => text !== '')
            .join(''),
        ],
  );
}

const textOf = (row: MessageRow) =>
  row.parts.map((part) => (part.type === 'text' ? part.text : '')).join('');

// The instance keeps a copy of each history its turns read, and asks the database only for
// what was written since (lib/sessions/history-cache): whatever wrote it, the model must be
// given the history as stored.
describeEachDatabase("a turn's history, from the instance's copy", (database) => {
  beforeAll(() => useDatabase(database()));
  let owner: Caller;
  let recorded: ReturnType<typeof recordingModel>;
  beforeEach(() => {
    owner = { ownerId: newId() };
    let answers = 0;
    recorded = recordingModel((prompt) => `Answer ${++answers} to ${conversation(prompt).at(-1)}`);
    turnModel.current = recorded.model;
  });
  const db = () => database().db;

  const send = async (id: string, body: object) => {
    const response = await messagesRoute.POST(
      request('POST', `/api/sessions/${id}/messages`, owner, body),
      params({ id }),
    );
    expect(response.status).toBe(200);
    await response.text();
    return conversation(recorded.calls.at(-1)?.prompt);
  };
  const ask = (id: string, text: string) =>
    send(id, { message: { role: 'user', parts: [{ type: 'text', text }] } });
  const stored = async (id: string) => (await listMessages(db(), id)).map(textOf);

  it('gives the model the stored history at every turn, whatever wrote it', async () => {
    const created = await sessionsRoute.POST(request('POST', '/api/sessions', owner, {}));
    const { id } = (await created.json()).session as { id: string };
    expect(await ask(id, 'one')).toEqual(['one']);
    expect(await ask(id, 'two')).toEqual(['one', 'Answer 1 to one', 'two']);

    // Written elsewhere (another instance's turn, say): an answer rewritten, a turn added.
    const [, answer] = await listMessages(db(), id);
    await db()
      .update(messages)
      .set({ parts: [{ type: 'text', text: '1!' }] })
      .where(eq(messages.id, (answer as MessageRow).id));
    await appendMessages(db(), id, [
      { role: 'user', parts: [{ type: 'text', text: 'elsewhere' }] },
      { role: 'assistant', parts: [{ type: 'text', text: 'from there' }] },
    ]);
    const three = await ask(id, 'three');
    expect(three).toEqual([
      'one',
      '1!',
      'two',
      'Answer 2 to two',
      'elsewhere',
      'from there',
      'three',
    ]);

    // A regenerate deletes the last answer and writes another in its place.
    await send(id, { trigger: 'regenerate' });
    expect(await ask(id, 'four')).toEqual([...three, 'Answer 4 to three', 'four']);

    // An edit of the first prompt deletes everything after it.
    const [first] = await listMessages(db(), id);
    await send(id, {
      trigger: 'edit',
      message: { id: first?.id, role: 'user', parts: [{ type: 'text', text: 'one, again' }] },
    });
    expect(await ask(id, 'five')).toEqual(['one, again', 'Answer 6 to one, again', 'five']);
    expect(await stored(id)).toEqual([
      'one, again',
      'Answer 6 to one, again',
      'five',
      'Answer 7 to five',
    ]);
  });
});
