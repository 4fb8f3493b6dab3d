import type { UIMessageChunk } from 'ai';
import { eq } from 'drizzle-orm';
import { beforeAll, beforeEach, expect, it, onTestFinished, vi } from 'vitest';
import * as forkRoute from '@/app/api/sessions/[id]/fork/route';
import * as messagesRoute from '@/app/api/sessions/[id]/messages/route';
import * as sessionRoute from '@/app/api/sessions/[id]/route';
import * as stopRoute from '@/app/api/sessions/[id]/stop/route';
import * as streamRoute from '@/app/api/sessions/[id]/stream/route';
import * as sessionsRoute from '@/app/api/sessions/route';
import { insertMessage, listMessages, truncateMessages } from '@/lib/db/messages';
import { sessions, turnChunks } from '@/lib/db/schema';
import { getSession } from '@/lib/db/sessions';
import { appendChunks, readChunks } from '@/lib/db/turn-log';
import { releaseTurn } from '@/lib/db/turns';
import { subscribe } from '@/lib/events/session-events';
import { newId } from '@/lib/ids';
import { STALE_TURN_MS } from '@/lib/sessions/turn-mark';
import { feedKey, followKey, stopKey, type TurnMessage, turnBus } from '@/lib/turns/turn-bus';
import { FINAL_SAVE_RETRIES_MS } from '@/lib/turns/turn-recorder';
import { describeEachDatabase } from '@/tests/helpers/databases';
import { holdNextTurn, nextTurnOn } from '@/tests/helpers/held-model';
import { type Caller, params, request, useDatabase } from '@/tests/helpers/routes';
import { slowAnswer, turnEnded } from '@/tests/helpers/turns';
import { uiChunks } from '@/tests/helpers/ui-stream';

process.env.QUANTA_SECRET = 'test-secret';

/** Final saves to fail before the database takes them again. */
const failingSaves = vi.hoisted(() => ({ left: 0 }));
vi.mock('@/lib/db/messages', async (importOriginal) => {
  const actual = await importOriginal<typeof import('@/lib/db/messages')>();
  return {
    ...actual,
    saveTurnAnswer: (...args: Parameters<typeof actual.saveTurnAnswer>) => {
      if (failingSaves.left === 0) return actual.saveTurnAnswer(...args);
      failingSaves.left--;
      return Promise.reject(new Error('connection lost'));
    },
  };
});

vi.mock('@/lib/agent/models', async (importOriginal) =>
  (await import('@/tests/helpers/held-model')).withHeldModels(
    importOriginal<typeof import('@/lib/agent/models')>,
  ),
);

/** What a turn's log holds when its server died mid-answer: a message begun, some text. */
const partial = (messageId: string): UIMessageChunk[] => [
  { type: 'start', messageId, messageMetadata: { model: 'demo:offline', status: 'streaming' } },
  { type: 'start-step' },
  { type: 'text-start', id: 't' },
  { type: 'text-delta', id: 't', delta: 'Half an ' },
  { type: 'text-delta', id: 't', delta: 'answer' },
];

describeEachDatabase('durable turns over the routes', (database) => {
  beforeAll(() => useDatabase(database()));
  let owner: Caller;
  beforeEach(() => {
    owner = { ownerId: newId() };
    failingSaves.left = 0;
  });
  const db = () => database().db;

  async function createSession(visibility: 'private' | 'public' = 'private') {
    const response = await sessionsRoute.POST(request('POST', '/api/sessions', owner, {}));
    const { id } = (await response.json()).session as { id: string };
    if (visibility === 'public') {
      await sessionRoute.PATCH(
        request('PATCH', `/api/sessions/${id}`, owner, { visibility }),
        params({ id }),
      );
    }
    return id;
  }

  /**
   * A turn marked on the session `ageMs` ago, with `partial` in its log, that runs in no
   * process here: another instance's (a fresh mark) or a dead server's (a stale one).
   */
  async function markTurn(id: string, ageMs: number) {
    const turnId = newId();
    const messageId = newId();
    await db()
      .update(sessions)
      .set({ activeTurnId: turnId, activeTurnStartedAt: new Date(Date.now() - ageMs) })
      .where(eq(sessions.id, id));
    await appendChunks(db(), id, turnId, 0, partial(messageId));
    return { turnId, messageId };
  }

  /** The prompt another instance's turn answers, stored first, as the route shows it. */
  async function storePrompt(id: string) {
    const asked = {
      id: newId(),
      role: 'user' as const,
      parts: [{ type: 'text' as const, text: 'Hi' }],
    };
    await insertMessage(db(), id, { ...asked, position: 0 });
    return asked;
  }

  const readSession = async (id: string, caller: Caller = owner) =>
    (await sessionRoute.GET(request('GET', `/api/sessions/${id}`, caller), params({ id }))).json();
  const prompt = (id: string, text = 'hello') =>
    messagesRoute.POST(
      request('POST', `/api/sessions/${id}/messages`, owner, {
        message: { role: 'user', parts: [{ type: 'text', text }] },
      }),
      params({ id }),
    );
  const follow = (id: string, caller: Caller = owner, query = '') =>
    streamRoute.GET(request('GET', `/api/sessions/${id}/stream${query}`, caller), params({ id }));
  const stop = async (id: string) =>
    (
      await stopRoute.POST(request('POST', `/api/sessions/${id}/stop`, owner), params({ id }))
    ).json();
  /** The session is free, its last message the held model's whole answer, ended as `status`. */
  async function expectStoredAnswer(id: string, status: 'complete' | 'interrupted') {
    const { session, messages } = await readSession(id);
    expect(session.turnActive).toBe(false);
    expect(messages.at(-1)).toMatchObject({
      role: 'assistant',
      parts: expect.arrayContaining([
        expect.objectContaining({ type: 'text', text: 'I am still answering' }),
      ]),
      metadata: { status },
    });
  }

  it('closes a turn whose server died when the session is read: its partial answer, interrupted', async () => {
    const id = await createSession();
    const { turnId, messageId } = await markTurn(id, STALE_TURN_MS + 60_000);
    const { session, messages } = await readSession(id);
    expect(session.turnActive).toBe(false);
    expect(messages).toEqual([
      {
        id: messageId,
        role: 'assistant',
        parts: [{ type: 'step-start' }, { type: 'text', text: 'Half an answer', state: 'done' }],
        metadata: { model: 'demo:offline', status: 'interrupted' },
      },
    ]);
    expect(await readChunks(db(), turnId)).toEqual([]);
    const next = await prompt(id);
    expect(next.status).toBe(200);
    await next.text();
  });

  it('leaves alone a turn freshly marked by another instance, and shows its answer so far', async () => {
    const id = await createSession();
    const asked = await storePrompt(id);
    const { turnId, messageId } = await markTurn(id, 0);
    const { session, messages } = await readSession(id);
    expect(session.turnActive).toBe(true);
    // Read from its log: that instance stores it only when a step that calls tools ends.
    expect(messages).toEqual([
      asked,
      {
        id: messageId,
        role: 'assistant',
        parts: [
          { type: 'step-start' },
          { type: 'text', text: 'Half an answer', state: 'streaming' },
        ],
        metadata: { model: 'demo:offline', status: 'streaming' },
      },
    ]);
    expect(await listMessages(db(), id)).toHaveLength(1);
    expect(await readChunks(db(), turnId)).toHaveLength(5);
    expect((await prompt(id)).status).toBe(409);
  });

  it('shows the answer so far of a turn running here, which stores it only at its end', async () => {
    const id = await createSession();
    const turn = holdNextTurn();
    const posted = await prompt(id);
    await turn.started;
    const { messages } = await readSession(id);
    expect(messages.map(({ role }: { role: string }) => role)).toEqual(['user', 'assistant']);
    expect(messages.at(-1).metadata.status).toBe('streaming');
    expect(messages.at(-1).parts.at(-1)).toEqual({
      type: 'text',
      text: 'I am still answering',
      state: 'streaming',
    });
    expect((await listMessages(db(), id)).map(({ role }) => role)).toEqual(['user']);
    // The newest page of the messages route ends the same way.
    const newest = await (
      await messagesRoute.GET(request('GET', `/api/sessions/${id}/messages`, owner), params({ id }))
    ).json();
    expect(newest.messages).toEqual(messages);
    turn.release();
    await uiChunks(posted).rest();
    const after = await readSession(id);
    expect(after.messages).toHaveLength(2);
    expect(after.messages.at(-1).metadata.status).toBe('complete');
  });

  const fork = async (id: string) => {
    const response = await forkRoute.POST(
      request('POST', `/api/sessions/${id}/fork`, owner),
      params({ id }),
    );
    expect(response.status).toBe(201);
    return readSession((await response.json()).session.id);
  };

  it('forks a session whose turn runs here with its answer so far, stopped where it was forked', async () => {
    const id = await createSession();
    const turn = holdNextTurn();
    const posted = await prompt(id);
    await turn.started;
    const { session, messages } = await fork(id);
    expect(session.turnActive).toBe(false);
    expect(messages.map(({ role }: { role: string }) => role)).toEqual(['user', 'assistant']);
    expect(messages.at(-1)).toMatchObject({
      parts: [
        { type: 'step-start' },
        { type: 'text', text: 'I am still answering', state: 'done' },
      ],
      metadata: { status: 'stopped' },
    });
    turn.release();
    await uiChunks(posted).rest();
  });

  it('forks a session whose turn runs elsewhere with its logged answer in place of a step’s save', async () => {
    const id = await createSession();
    const asked = await storePrompt(id);
    const { messageId } = await markTurn(id, 0);
    // What a step that called tools would have stored, before the text its log has since.
    await insertMessage(db(), id, {
      id: messageId,
      role: 'assistant',
      parts: [{ type: 'step-start' }],
      metadata: { model: 'demo:offline', status: 'streaming' },
      position: 1,
    });
    const { messages } = await fork(id);
    expect(messages).toEqual([
      { ...asked, id: expect.any(String) },
      {
        id: expect.any(String),
        role: 'assistant',
        parts: [{ type: 'step-start' }, { type: 'text', text: 'Half an answer', state: 'done' }],
        metadata: { model: 'demo:offline', status: 'stopped' },
      },
    ]);
  });

  it('forks a session whose turn died with the answer its log holds, interrupted', async () => {
    const id = await createSession();
    await storePrompt(id);
    await markTurn(id, STALE_TURN_MS + 60_000);
    const { messages } = await fork(id);
    expect(messages.at(-1)).toMatchObject({
      parts: [{ type: 'step-start' }, { type: 'text', text: 'Half an answer', state: 'done' }],
      metadata: { status: 'interrupted' },
    });
  });

  it('shows the final message as stored when the log does not yet say the turn ended', async () => {
    const id = await createSession();
    const asked = await storePrompt(id);
    const { messageId } = await markTurn(id, 0);
    // Its final save is done; its last chunks and its release are still on their way.
    const final = {
      id: messageId,
      role: 'assistant' as const,
      parts: [
        { type: 'text' as const, text: 'Half an answer, and the rest.', state: 'done' as const },
      ],
      metadata: { model: 'demo:offline', status: 'complete' as const },
    };
    await insertMessage(db(), id, { ...final, position: 1 });
    const { session, messages } = await readSession(id);
    expect(session.turnActive).toBe(true);
    expect(messages).toEqual([asked, final]);
  });

  it('shows no answer so far of a turn whose log has ended: its stored message is the truth', async () => {
    const id = await createSession();
    const asked = await storePrompt(id);
    const { turnId } = await markTurn(id, 0);
    // Its final message is stored before its last chunk, which says how it ended; then it
    // releases the session. A read in between finds the mark and that chunk.
    await appendChunks(db(), id, turnId, 5, [
      { type: 'message-metadata', messageMetadata: { status: 'stopped' } },
    ]);
    const { session, messages } = await readSession(id);
    expect(session.turnActive).toBe(true);
    expect(messages).toEqual([asked]);
  });

  it('answers 204 on the stream route when no turn runs', async () => {
    const id = await createSession();
    const response = await follow(id);
    expect(response.status).toBe(204);
    expect(await response.text()).toBe('');
  });

  it('replays a running turn from its first chunk to the owner and to a reader of a public link, and follows it to its end', async () => {
    const id = await createSession('public');
    const turn = holdNextTurn();
    const posted = await prompt(id);
    await turn.started;
    const fromOwner = await follow(id);
    const fromReader = await follow(id, {});
    expect(fromOwner.status).toBe(200);
    expect(fromOwner.headers.get('x-vercel-ai-ui-message-stream')).toBe('v1');
    const streams = [posted, fromOwner, fromReader].map(uiChunks);
    // All three have what was written so far before the turn goes on.
    for (const stream of streams) {
      expect((await stream.take(4)).map((chunk) => chunk.type)).toEqual([
        'start',
        'start-step',
        'text-start',
        'text-delta',
      ]);
    }
    turn.release();
    const [rest, ...others] = await Promise.all(streams.map((stream) => stream.rest()));
    for (const other of others) expect(other).toEqual(rest);
    expect(rest?.at(-1)).toEqual({
      type: 'message-metadata',
      messageMetadata: expect.objectContaining({ status: 'complete' }),
    });
  });

  it('gives the chunks after the one named by ?after', async () => {
    const id = await createSession();
    const turn = holdNextTurn();
    const posted = await prompt(id);
    await turn.started;
    const after = await follow(id, owner, '?after=1');
    turn.release();
    const all = await uiChunks(posted).rest();
    expect(await uiChunks(after).rest()).toEqual(all.slice(2));
  });

  it('refuses an ?after that is not a chunk number', async () => {
    const id = await createSession();
    const response = await follow(id, owner, '?after=abc');
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: { code: 'invalid_input', message: 'after must be a chunk number (0 or more)' },
    });
  });

  it('shows a private session’s turn to no one but its owner', async () => {
    const id = await createSession();
    const turn = holdNextTurn();
    const posted = await prompt(id);
    await turn.started;
    expect((await follow(id, { ownerId: newId() })).status).toBe(404);
    expect((await follow(id, {})).status).toBe(404);
    turn.release();
    await posted.text();
  });

  it('follows a turn running on another instance from its log and the bus', async () => {
    const id = await createSession();
    const { turnId, messageId } = await markTurn(id, 0);
    const asked: TurnMessage[] = [];
    const unsubscribe = turnBus().subscribe(followKey(turnId), (message) => asked.push(message));
    onTestFinished(unsubscribe);
    const response = await follow(id);
    expect(response.status).toBe(200);
    // Its instance is asked to log it live.
    expect(asked).toEqual([{ type: 'follow' }]);
    const stream = uiChunks(response);
    expect(await stream.take(5)).toEqual(partial(messageId));
    // The other instance logs a batch, then publishes it.
    const more: UIMessageChunk[] = [
      { type: 'text-delta', id: 't', delta: '.' },
      { type: 'text-end', id: 't' },
    ];
    await appendChunks(db(), id, turnId, 5, more);
    turnBus().publish(feedKey(turnId), { type: 'chunks', from: 5, chunks: more });
    expect(await stream.take(2)).toEqual(more);
    // Its last batch is only in the log when its end is heard.
    const last: UIMessageChunk = {
      type: 'message-metadata',
      messageMetadata: { status: 'complete' },
    };
    await appendChunks(db(), id, turnId, 7, [last]);
    turnBus().publish(feedKey(turnId), { type: 'end' });
    expect(await stream.rest()).toEqual([last]);
  });

  it('Stop asks the instance running the turn to stop it', async () => {
    const id = await createSession();
    const { turnId } = await markTurn(id, 0);
    const heard: TurnMessage[] = [];
    const unsubscribe = turnBus().subscribe(stopKey(turnId), (message) => heard.push(message));
    expect(await stop(id)).toEqual({ stopped: true });
    unsubscribe();
    expect(heard).toEqual([{ type: 'stop' }]);
  });

  it('Stop closes a turn whose server died as interrupted', async () => {
    const id = await createSession();
    const { turnId } = await markTurn(id, STALE_TURN_MS + 60_000);
    expect(await stop(id)).toEqual({ stopped: true });
    const { session, messages } = await readSession(id);
    expect(session.turnActive).toBe(false);
    expect(messages.at(-1).metadata.status).toBe('interrupted');
    expect(await readChunks(db(), turnId)).toEqual([]);
    expect(await stop(id)).toEqual({ stopped: false });
  });

  it('Stop of a turn running here stores it stopped and ends its stream saying so', async () => {
    const id = await createSession();
    const turn = holdNextTurn();
    const posted = await prompt(id);
    await turn.started;
    expect(await stop(id)).toEqual({ stopped: true });
    const chunks = await uiChunks(posted).rest();
    expect(chunks.at(-1)).toEqual({
      type: 'message-metadata',
      messageMetadata: expect.objectContaining({ status: 'stopped' }),
    });
    const { messages } = await readSession(id);
    expect(messages.at(-1).metadata.status).toBe('stopped');
    // What it wrote is all there will be: not shown as still streaming.
    expect(messages.at(-1).parts.at(-1)).toEqual({
      type: 'text',
      text: 'I am still answering',
      state: 'done',
    });
  });

  const remove = (id: string) =>
    sessionRoute.DELETE(request('DELETE', `/api/sessions/${id}`, owner), params({ id }));

  it('deleting a session stops its turn running on another instance', async () => {
    const id = await createSession();
    const { turnId } = await markTurn(id, 0);
    const heard: TurnMessage[] = [];
    const unsubscribe = turnBus().subscribe(stopKey(turnId), (message) => heard.push(message));
    expect((await remove(id)).status).toBe(204);
    unsubscribe();
    expect(heard).toEqual([{ type: 'stop' }]);
  });

  it('deleting a session stops its turn running here: the model is asked no more', async () => {
    const errors = vi.spyOn(console, 'error');
    onTestFinished(() => errors.mockRestore());
    const id = await createSession();
    const turn = holdNextTurn();
    const posted = await prompt(id);
    await turn.started;
    expect((await remove(id)).status).toBe(204);
    // The held model answers until released or stopped: the stream ends, released or not.
    const chunks = await uiChunks(posted).rest();
    turn.release();
    expect(chunks.at(-1)).toEqual({
      type: 'message-metadata',
      messageMetadata: expect.objectContaining({ status: 'stopped' }),
    });
    // Its last writes, done before its stream ended, found no session: nothing to keep, and
    // no error in the server's log.
    expect(errors).not.toHaveBeenCalled();
  });

  it('a turn taken for dead while it runs stores nothing more', async () => {
    const id = await createSession();
    const turn = holdNextTurn();
    const posted = await prompt(id);
    await turn.started;
    const turnId = (await getSession(db(), id))?.activeTurnId;
    expect(turnId).toEqual(expect.any(String));
    // Closed as dead by another instance whose stop it did not hear, and the prompt then edited
    // away: the session is free and empty.
    await releaseTurn(db(), id, turnId as string);
    await truncateMessages(db(), id, 0);
    // It ends, and its final save, made only while the turn holds the session, is refused.
    turn.release();
    await uiChunks(posted).rest();
    // Its answer is not put back at its old position, past the edit, in a gap.
    expect(await listMessages(db(), id)).toEqual([]);
  });

  it('a turn taken for dead ends its stream saying it was interrupted, as its closer stored it', async () => {
    const id = await createSession();
    const turn = holdNextTurn();
    const posted = await prompt(id);
    await turn.started;
    const turnId = (await getSession(db(), id))?.activeTurnId as string;
    await releaseTurn(db(), id, turnId);
    turn.release();
    const chunks = await uiChunks(posted).rest();
    expect(chunks.filter((chunk) => chunk.type === 'message-metadata').at(-1)).toEqual({
      type: 'message-metadata',
      messageMetadata: { status: 'interrupted' },
    });
  });

  it('recovers the answer from its log when the database will not take its final save', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    onTestFinished(() => errors.mockRestore());
    const id = await createSession();
    const turn = holdNextTurn();
    const ended = turnEnded(id);
    const posted = await prompt(id);
    await turn.started;
    const turnId = (await getSession(db(), id))?.activeTurnId as string;
    let endings = 0;
    onTestFinished(
      subscribe(id, (event) => {
        if (event.type === 'turn' && event.status === 'ended') endings++;
      }),
    );
    failingSaves.left = FINAL_SAVE_RETRIES_MS.length + 1;
    turn.release();
    const chunks = await uiChunks(posted).rest();
    await ended;
    expect(failingSaves.left).toBe(0);
    expect(endings).toBe(1);
    // Kept for readers on other instances, as any ended turn's log is, for a while.
    expect(await readChunks(db(), turnId)).not.toEqual([]);
    expect(chunks.filter((chunk) => chunk.type === 'message-metadata').at(-1)).toEqual({
      type: 'message-metadata',
      messageMetadata: { status: 'interrupted' },
    });
    await expectStoredAnswer(id, 'interrupted');
  }, 15_000);

  /** The batches the session's turn log was written in, once its answer is stored whole. */
  async function logBatches(id: string, words: string[]) {
    const { messages } = await readSession(id);
    expect(messages.at(-1).parts).toContainEqual(
      expect.objectContaining({ type: 'text', text: words.join('') }),
    );
    const batches = await db()
      .select({ seq: turnChunks.seq })
      .from(turnChunks)
      .where(eq(turnChunks.sessionId, id));
    return batches.length;
  }

  /** The turn the session's claim marked, once it has. */
  const claimedTurn = (id: string) =>
    vi.waitFor(async () => {
      const turnId = (await getSession(db(), id))?.activeTurnId;
      if (!turnId) throw new Error('the session is not claimed yet');
      return turnId;
    });

  it('writes the log of a turn no reader elsewhere follows once a second', async () => {
    const id = await createSession();
    const { words, model } = slowAnswer();
    nextTurnOn(model);
    await uiChunks(await prompt(id)).rest();
    // One at each second the answer crossed (two or three), and the rest at its end; batches of
    // 100 ms would be some 25.
    const batches = await logBatches(id, words);
    expect(batches).toBeGreaterThanOrEqual(3);
    expect(batches).toBeLessThanOrEqual(4);
  }, 15_000);

  it('writes the log every 100 ms once a reader on another instance follows the turn', async () => {
    const id = await createSession();
    const { words, model } = slowAnswer();
    nextTurnOn(model);
    const posted = await prompt(id);
    // What `followTurn` asks on the other instance.
    turnBus().publish(followKey(await claimedTurn(id)), { type: 'follow' });
    await uiChunks(posted).rest();
    expect(await logBatches(id, words)).toBeGreaterThanOrEqual(8);
  }, 15_000);

  it('hears a follower who asks before the turn has its model', async () => {
    const id = await createSession();
    const { words, model } = slowAnswer();
    let giveModel = () => {};
    nextTurnOn(new Promise((resolve) => (giveModel = () => resolve(model))));
    const posting = prompt(id);
    turnBus().publish(followKey(await claimedTurn(id)), { type: 'follow' });
    giveModel();
    await uiChunks(await posting).rest();
    expect(await logBatches(id, words)).toBeGreaterThanOrEqual(8);
  }, 15_000);

  it('runs a turn to its end and stores it whole when its client goes away', async () => {
    const id = await createSession();
    const turn = holdNextTurn();
    const ended = turnEnded(id);
    const posted = await prompt(id);
    await turn.started;
    await posted.body?.cancel();
    turn.release();
    await ended;
    await expectStoredAnswer(id, 'complete');
  });
});
