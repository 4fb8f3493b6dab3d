import { eq } from 'drizzle-orm';
import { beforeAll, beforeEach, expect, it, vi } from 'vitest';
import * as eventsRoute from '@/app/api/sessions/[id]/events/route';
import * as forkRoute from '@/app/api/sessions/[id]/fork/route';
import * as messagesRoute from '@/app/api/sessions/[id]/messages/route';
import * as sessionRoute from '@/app/api/sessions/[id]/route';
import * as stopRoute from '@/app/api/sessions/[id]/stop/route';
import * as actionsRoute from '@/app/api/sessions/[id]/widgets/[toolCallId]/actions/route';
import * as sessionsRoute from '@/app/api/sessions/route';
import { sessions } from '@/lib/db/schema';
import { newId } from '@/lib/ids';
import type { MessageMetadata } from '@/lib/protocol';
import { RENEW_TURN_MS } from '@/lib/sessions/turn-mark';
import { describeEachDatabase } from '@/tests/helpers/databases';
import { holdNextTurn } from '@/tests/helpers/held-model';
import { bearerFor, type Caller, params, request, useDatabase } from '@/tests/helpers/routes';
import { uiChunks } from '@/tests/helpers/ui-stream';

process.env.QUANTA_SECRET = 'test-secret';

vi.mock('@/lib/agent/models', async (importOriginal) =>
  (await import('@/tests/helpers/held-model')).withHeldModels(
    importOriginal<typeof import('@/lib/agent/models')>,
  ),
);

async function createAs(caller: Caller, body: unknown = {}) {
  const response = await sessionsRoute.POST(request('POST', '/api/sessions', caller, body));
  expect(response.status).toBe(201);
  return (await response.json()).session as { id: string; title: string; visibility: string };
}

describeEachDatabase('session routes', (database) => {
  beforeAll(() => useDatabase(database()));
  let owner: Caller;
  beforeEach(() => {
    owner = { ownerId: newId() };
  });

  it('creates, lists, reads, renames, shares and deletes a session', async () => {
    const created = await createAs(owner, { title: 'First' });
    expect(created).toMatchObject({ title: 'First', visibility: 'private', isOwner: true });

    const list = await (await sessionsRoute.GET(request('GET', '/api/sessions', owner))).json();
    expect(list).toEqual({
      sessions: [expect.objectContaining({ id: created.id })],
      nextCursor: null,
    });

    const read = await sessionRoute.GET(
      request('GET', `/api/sessions/${created.id}`, owner),
      params({ id: created.id }),
    );
    expect(await read.json()).toEqual({
      session: expect.objectContaining({ id: created.id }),
      messages: [],
      hasEarlier: false,
      widgetStates: {},
    });

    const renamed = await sessionRoute.PATCH(
      request('PATCH', `/api/sessions/${created.id}`, owner, {
        title: 'Renamed',
        visibility: 'public',
      }),
      params({ id: created.id }),
    );
    expect((await renamed.json()).session).toMatchObject({
      title: 'Renamed',
      visibility: 'public',
    });

    const deleted = await sessionRoute.DELETE(
      request('DELETE', `/api/sessions/${created.id}`, owner),
      params({ id: created.id }),
    );
    expect(deleted.status).toBe(204);
    const gone = await sessionRoute.GET(
      request('GET', `/api/sessions/${created.id}`, owner),
      params({ id: created.id }),
    );
    expect(gone.status).toBe(404);
    expect(await gone.json()).toEqual({
      error: { code: 'not_found', message: 'No such session.' },
    });
  });

  it('pages the list with a cursor', async () => {
    for (let i = 0; i < 3; i++) await createAs(owner, { title: `t${i}` });
    const first = await (
      await sessionsRoute.GET(request('GET', '/api/sessions?limit=2', owner))
    ).json();
    expect(first.sessions.map((s: { title: string }) => s.title)).toEqual(['t2', 't1']);
    const second = await (
      await sessionsRoute.GET(
        request('GET', `/api/sessions?limit=2&cursor=${first.nextCursor}`, owner),
      )
    ).json();
    expect(second).toEqual({
      sessions: [expect.objectContaining({ title: 't0' })],
      nextCursor: null,
    });
  });

  it('works for an API client with a bearer token, with no Origin header', async () => {
    const client = await bearerFor(owner.ownerId as string);
    const created = await createAs(client, { title: 'From a script' });
    const read = await sessionRoute.GET(
      request('GET', `/api/sessions/${created.id}`, owner),
      params({ id: created.id }),
    );
    expect(read.status).toBe(200);
  });

  it.each([
    [
      'a title over 200 characters',
      { title: 'x'.repeat(201) },
      400,
      'title: must NOT have more than 200 characters',
    ],
    ['an empty title', { title: '' }, 400, 'title: must NOT have fewer than 1 characters'],
    ['an unknown field', { owner: 'me' }, 400, 'owner: is not allowed'],
    [
      'a bad visibility',
      { visibility: 'secret' },
      400,
      'visibility: must be one of: private, public',
    ],
  ])('PATCH refuses %s', async (_case, body, status, message) => {
    const { id } = await createAs(owner);
    const response = await sessionRoute.PATCH(
      request('PATCH', `/api/sessions/${id}`, owner, body),
      params({ id }),
    );
    expect(response.status).toBe(status);
    expect(await response.json()).toEqual({ error: { code: 'invalid_input', message } });
  });

  it('sets a session to an offered model, and refuses one this server does not offer', async () => {
    const { id } = await createAs(owner);
    const patch = (model: string | null) =>
      sessionRoute.PATCH(request('PATCH', `/api/sessions/${id}`, owner, { model }), params({ id }));
    const set = await patch('demo:offline');
    expect((await set.json()).session.model).toBe('demo:offline');
    const refused = await patch('openai:gpt-nope');
    expect(refused.status).toBe(400);
    const { error } = await refused.json();
    expect(error.code).toBe('unknown_model');
    expect(error.message).toMatch(/^No model "openai:gpt-nope" here\. Offered: .*demo:offline\.$/);
    expect((await (await patch(null)).json()).session.model).toBeNull();
  });

  it('refuses an empty patch, invalid JSON and an oversized body', async () => {
    const { id } = await createAs(owner);
    const empty = await sessionRoute.PATCH(
      request('PATCH', `/api/sessions/${id}`, owner, {}),
      params({ id }),
    );
    expect(empty.status).toBe(400);
    // The body itself is what is wrong: it is named as such, not as tool "arguments".
    expect((await empty.json()).error.message).toMatch(/^body: /);
    const broken = await sessionRoute.PATCH(
      request('PATCH', `/api/sessions/${id}`, owner, '{"title":'),
      params({ id }),
    );
    expect(await broken.json()).toEqual({
      error: { code: 'invalid_json', message: 'The request body is not valid JSON.' },
    });
    const huge = await sessionsRoute.POST(
      request('POST', '/api/sessions', owner, { title: 'x'.repeat(20_000) }),
    );
    expect(huge.status).toBe(413);
  });

  it('refuses a page size over 100 and a forged cursor', async () => {
    expect((await sessionsRoute.GET(request('GET', '/api/sessions?limit=101', owner))).status).toBe(
      400,
    );
    expect((await sessionsRoute.GET(request('GET', '/api/sessions?limit=0', owner))).status).toBe(
      400,
    );
    expect(
      (await sessionsRoute.GET(request('GET', '/api/sessions?cursor=bm9wZQ', owner))).status,
    ).toBe(400);
  });

  it.each([
    '0000-01-01T00:00:00.000Z',
    '+275760-09-13T00:00:00.000Z',
    '-271821-04-20T00:00:00.000Z',
    '2026-02-31T00:00:00.000Z',
    '2026-01-01',
  ])('refuses a cursor whose time (%s) no session has, without a 500', async (time) => {
    const cursor = Buffer.from(`${time} ${newId()}`).toString('base64url');
    const response = await sessionsRoute.GET(
      request('GET', `/api/sessions?cursor=${cursor}`, owner),
    );
    expect(response.status).toBe(400);
    expect((await response.json()).error.message).toBe('cursor: is not one this server issued');
  });

  it('refuses a cookie request from another origin (CSRF)', async () => {
    const response = await sessionsRoute.POST(
      request('POST', '/api/sessions', { ...owner, origin: 'https://evil.example' }, {}),
    );
    expect(response.status).toBe(403);
    expect((await response.json()).error.code).toBe('cross_origin');
  });

  it('treats a forged token as nobody', async () => {
    const forged = request('GET', '/api/sessions', { bearer: `${owner.ownerId}.forged` });
    expect((await sessionsRoute.GET(forged)).status).toBe(401);
  });

  it('answers 404 for an id that is not even well-formed', async () => {
    const response = await sessionRoute.GET(
      request('GET', '/api/sessions/nope', owner),
      params({ id: 'nope' }),
    );
    expect(response.status).toBe(404);
  });

  const prompt = (id: string, text: string) =>
    messagesRoute.POST(
      request('POST', `/api/sessions/${id}/messages`, owner, {
        message: { role: 'user', parts: [{ type: 'text', text }] },
      }),
      params({ id }),
    );

  it('refuses a second prompt while a turn runs, and takes one again after it', async () => {
    const { id } = await createAs(owner);
    const turn = holdNextTurn();
    const first = await prompt(id, 'hello');
    await turn.started;
    const second = await prompt(id, 'again');
    expect(second.status).toBe(409);
    expect((await second.json()).error.code).toBe('turn_active');
    turn.release();
    await first.text();
    const third = await prompt(id, 'again');
    expect(third.status).toBe(200);
    await third.text();
  });

  it('stops a running turn, keeping and marking what it produced', async () => {
    const { id } = await createAs(owner);
    const turn = holdNextTurn();
    const running = await prompt(id, 'hello');
    await turn.started;
    const stopped = await stopRoute.POST(
      request('POST', `/api/sessions/${id}/stop`, owner),
      params({ id }),
    );
    expect(await stopped.json()).toEqual({ stopped: true });
    await running.text();
    const { session, messages } = await (
      await sessionRoute.GET(request('GET', `/api/sessions/${id}`, owner), params({ id }))
    ).json();
    expect(session.turnActive).toBe(false);
    const answer = messages.at(-1);
    expect(answer.metadata.status).toBe('stopped');
    expect(answer.parts.find((part: { type: string }) => part.type === 'text').text).toBe(
      'I am still answering',
    );
  });

  it('Stop frees a session whose turn runs nowhere: its mark went unrenewed', async () => {
    const { id } = await createAs(owner);
    // A server died mid-turn three minutes ago: its mark stays, and no instance renews it.
    await database()
      .db.update(sessions)
      .set({ activeTurnId: newId(), activeTurnStartedAt: new Date(Date.now() - 3 * 60_000) })
      .where(eq(sessions.id, id));
    const stop = () =>
      stopRoute.POST(request('POST', `/api/sessions/${id}/stop`, owner), params({ id }));
    expect(await (await stop()).json()).toEqual({ stopped: true });
    expect(await (await stop()).json()).toEqual({ stopped: false });
    const next = await prompt(id, 'hello again');
    expect(next.status).toBe(200);
    await next.text();
  });

  it('a turn whose session another turn took over gives up at its next renewal', async () => {
    // Only the renewal timer is faked: the stream, the database and the model keep real time.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      const { id } = await createAs(owner);
      const turn = holdNextTurn();
      const running = await prompt(id, 'hello');
      await turn.started;
      // It is silent now (a model thinking), and a step saves nothing before its end: only the
      // renewal can find the session taken.
      // Its renewals failed for the whole stale window, and another instance claimed the session.
      await database()
        .db.update(sessions)
        .set({ activeTurnId: newId() })
        .where(eq(sessions.id, id));
      vi.advanceTimersByTime(RENEW_TURN_MS);
      // A turn that did not give up would answer in full once released.
      const release = setTimeout(() => turn.release(), 1_000);
      const chunks = await uiChunks(running).rest();
      clearTimeout(release);
      // It stopped, and as its final save was refused, its stream ends as its closer stores it.
      expect(chunks.slice(-2)).toEqual([
        {
          type: 'message-metadata',
          messageMetadata: expect.objectContaining({ status: 'stopped' }),
        },
        { type: 'message-metadata', messageMetadata: { status: 'interrupted' } },
      ]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('refuses a message that is empty or not a user text message', async () => {
    const { id } = await createAs(owner);
    for (const message of [
      { role: 'user', parts: [{ type: 'text', text: '   ' }] },
      { role: 'assistant', parts: [{ type: 'text', text: 'hi' }] },
      { role: 'user', parts: [] },
    ]) {
      const response = await messagesRoute.POST(
        request('POST', `/api/sessions/${id}/messages`, owner, { message }),
        params({ id }),
      );
      expect(response.status).toBe(400);
    }
  });

  const send = (id: string, body: object) =>
    messagesRoute.POST(
      request('POST', `/api/sessions/${id}/messages`, owner, body),
      params({ id }),
    );
  const transcript = async (id: string) => {
    const response = await sessionRoute.GET(
      request('GET', `/api/sessions/${id}`, owner),
      params({ id }),
    );
    const { messages } = await response.json();
    return messages as {
      id: string;
      role: string;
      parts: { type: string; text?: string }[];
      metadata?: MessageMetadata;
    }[];
  };
  const texts = (messages: Awaited<ReturnType<typeof transcript>>) =>
    messages.map((m) => `${m.role}: ${m.parts.find((p) => p.type === 'text')?.text?.slice(0, 12)}`);
  const userText = (text: string, id?: string) => ({
    message: { ...(id ? { id } : {}), role: 'user', parts: [{ type: 'text', text }] },
  });

  it('keeps a client id of our shape for the user message, and names it otherwise', async () => {
    const { id } = await createAs(owner);
    const mine = newId();
    await (await send(id, userText('what is 1 + 1', mine))).text();
    await (await send(id, userText('what is 2 + 2', 'not-an-id'))).text();
    // Taken already: the server names the message instead of failing.
    await (await send(id, userText('what is 3 + 3', mine))).text();
    const users = (await transcript(id)).filter((m) => m.role === 'user').map((m) => m.id);
    expect(users[0]).toBe(mine);
    expect(users[1]).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(users[2]).not.toBe(mine);
  });

  it('keeps no prompt whose turn could not start, so a retry sends it once', async () => {
    const { id } = await createAs(owner);
    await (await send(id, userText('what is 1 + 1'))).text();
    const before = await transcript(id);
    // The server no longer offers the session's model.
    await database()
      .db.update(sessions)
      .set({ model: 'openai:gpt-gone' })
      .where(eq(sessions.id, id));
    const refused = await send(id, userText('what is 2 + 2'));
    expect(refused.status).toBe(409);
    expect((await refused.json()).error.code).toBe('model_unavailable');
    expect(await transcript(id)).toEqual(before);
    // The session is free, and the retry is its only copy.
    await database().db.update(sessions).set({ model: null }).where(eq(sessions.id, id));
    await (await send(id, userText('what is 2 + 2'))).text();
    expect(texts(await transcript(id))).toEqual([
      'user: what is 1 + ',
      'assistant: Let me work ',
      'user: what is 2 + ',
      'assistant: Let me work ',
    ]);
  });

  it('edits a user message: it is replaced, what came after is dropped, and a turn answers it', async () => {
    const { id } = await createAs(owner);
    await (await send(id, userText('what is 1 + 1'))).text();
    await (await send(id, userText('what is 2 + 2'))).text();
    const [first] = await transcript(id);
    const response = await send(id, { trigger: 'edit', ...userText('what is 5 + 5', first?.id) });
    expect(response.status).toBe(200);
    await response.text();
    const after = await transcript(id);
    expect(texts(after)).toEqual(['user: what is 5 + ', 'assistant: Let me work ']);
    expect(after[0]?.id).toBe(first?.id);
    expect(JSON.stringify(after[1])).toContain('5 + 5 = 10');
    // The model was sent only the edited question: as much as a new session asking it.
    const fresh = await createAs(owner);
    await (await send(fresh.id, userText('what is 5 + 5'))).text();
    const [, freshAnswer] = await transcript(fresh.id);
    expect(after[1]?.metadata?.steps?.[0]).toEqual(freshAnswer?.metadata?.steps?.[0]);
  });

  it('regenerates the last answer: the answer is replaced, the question kept', async () => {
    const { id } = await createAs(owner);
    await (await send(id, userText('what is 6 * 7'))).text();
    const [question, answer] = await transcript(id);
    const response = await send(id, { trigger: 'regenerate' });
    expect(response.status).toBe(200);
    await response.text();
    const after = await transcript(id);
    expect(after).toHaveLength(2);
    expect(after[0]?.id).toBe(question?.id);
    expect(after[1]?.id).not.toBe(answer?.id);
    expect(JSON.stringify(after[1])).toContain('6 * 7 = 42');
    // The old answer was not sent to the model again: the same history, the same tokens in.
    expect(after[1]?.metadata?.steps).toEqual(answer?.metadata?.steps);
  });

  it('refuses an edit or a regenerate that makes no sense, changing nothing', async () => {
    const { id } = await createAs(owner);
    const cases: [object, number, string][] = [
      [{ trigger: 'regenerate' }, 400, 'nothing_to_regenerate'],
      [{ trigger: 'edit', ...userText('x') }, 400, 'invalid_input'],
      [{ trigger: 'edit', ...userText('x', 'BBBBBBBBBBBBBBBBBBBBBB') }, 404, 'message_not_found'],
      [{ trigger: 'regenerate', ...userText('x') }, 400, 'invalid_input'],
      [{ trigger: 'submit' }, 400, 'invalid_input'],
      [{ trigger: 'rewind', ...userText('x') }, 400, 'invalid_input'],
    ];
    for (const [body, status, code] of cases) {
      const response = await send(id, body);
      expect([JSON.stringify(body), response.status]).toEqual([JSON.stringify(body), status]);
      expect((await response.json()).error.code).toBe(code);
    }
    expect(await transcript(id)).toEqual([]);
    // Each refusal released the turn: a real prompt runs.
    expect((await send(id, userText('hello'))).status).toBe(200);
  });

  it('does not call a turn running when its mark is older than any turn lasts', async () => {
    const { id } = await createAs(owner);
    const mark = (startedAt: Date) =>
      database()
        .db.update(sessions)
        .set({ activeTurnId: newId(), activeTurnStartedAt: startedAt })
        .where(eq(sessions.id, id));
    const turnActive = async () =>
      (
        await (
          await sessionRoute.GET(request('GET', `/api/sessions/${id}`, owner), params({ id }))
        ).json()
      ).session.turnActive;
    await mark(new Date());
    expect(await turnActive()).toBe(true);
    // A server that died mid-turn an hour ago left this one.
    await mark(new Date(Date.now() - 60 * 60_000));
    expect(await turnActive()).toBe(false);
  });

  // The authorisation matrix: who × visibility × action → status.
  // A widget action names a tool call; none was made here, so even the owner finds no widget,
  // and everyone else must learn no more than that.
  const callers = ['owner', 'owner by API token', 'other owner', 'anonymous'] as const;
  const actions = ['read', 'rename', 'delete', 'fork', 'post', 'events', 'stop', 'widget'] as const;
  // The owner may do everything, whatever the visibility, by cookie or by API token.
  const everything = {
    read: 200,
    rename: 200,
    delete: 204,
    fork: 201,
    post: 200,
    events: 200,
    stop: 200,
    widget: 404,
  };
  const owners = { private: everything, public: everything };
  const expected: Record<
    (typeof callers)[number],
    Record<'private' | 'public', Record<(typeof actions)[number], number>>
  > = {
    owner: owners,
    'owner by API token': owners,
    'other owner': {
      private: {
        read: 404,
        rename: 404,
        delete: 404,
        fork: 404,
        post: 404,
        events: 404,
        stop: 404,
        widget: 404,
      },
      public: {
        read: 200,
        rename: 403,
        delete: 403,
        fork: 201,
        post: 403,
        events: 200,
        stop: 403,
        widget: 404,
      },
    },
    anonymous: {
      private: {
        read: 404,
        rename: 401,
        delete: 401,
        fork: 401,
        post: 401,
        events: 404,
        stop: 401,
        widget: 401,
      },
      public: {
        read: 200,
        rename: 401,
        delete: 401,
        fork: 401,
        post: 401,
        events: 200,
        stop: 401,
        widget: 401,
      },
    },
  };
  for (const who of callers) {
    for (const visibility of ['private', 'public'] as const) {
      for (const action of actions) {
        const status = expected[who][visibility][action];
        it(`${who} × ${visibility} × ${action} → ${status}`, async () => {
          const { id } = await createAs(owner);
          if (visibility === 'public') {
            await sessionRoute.PATCH(
              request('PATCH', `/api/sessions/${id}`, owner, { visibility }),
              params({ id }),
            );
          }
          const caller: Caller = {
            owner,
            'owner by API token': await bearerFor(owner.ownerId as string),
            'other owner': { ownerId: newId() },
            anonymous: {},
          }[who];
          const path = `/api/sessions/${id}`;
          const response = await {
            read: () => sessionRoute.GET(request('GET', path, caller), params({ id })),
            rename: () =>
              sessionRoute.PATCH(
                request('PATCH', path, caller, { title: 'hijacked' }),
                params({ id }),
              ),
            delete: () => sessionRoute.DELETE(request('DELETE', path, caller), params({ id })),
            fork: () => forkRoute.POST(request('POST', `${path}/fork`, caller), params({ id })),
            post: () =>
              messagesRoute.POST(
                request('POST', `${path}/messages`, caller, {
                  message: { role: 'user', parts: [{ type: 'text', text: 'hello' }] },
                }),
                params({ id }),
              ),
            events: () => eventsRoute.GET(request('GET', `${path}/events`, caller), params({ id })),
            stop: () => stopRoute.POST(request('POST', `${path}/stop`, caller), params({ id })),
            widget: () =>
              actionsRoute.POST(
                request('POST', `${path}/widgets/call_1/actions`, caller, {
                  action: 'reset',
                  version: 0,
                }),
                params({ id, toolCallId: 'call_1' }),
              ),
          }[action]();
          expect(response.status).toBe(status);
          if (action === 'events' && status === 200) await response.body?.cancel();
          else await response.text(); // a turn runs to its end before the next check
          // A refused change changed nothing.
          const after = await sessionRoute.GET(request('GET', path, owner), params({ id }));
          if (action === 'delete' && status === 204) expect(after.status).toBe(404);
          else {
            const { session, messages } = await after.json();
            const changed = status === 200 && (action === 'rename' || action === 'post');
            expect(session.title).toBe(
              changed ? { rename: 'hijacked', post: 'hello' }[action] : 'New chat',
            );
            // Only the owner's prompt is stored, with the answer it got.
            expect(messages.map((m: { role: string }) => m.role)).toEqual(
              action === 'post' && status === 200 ? ['user', 'assistant'] : [],
            );
          }
        });
      }
    }
  }
});
