import { eq } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import * as messagesRoute from '@/app/api/sessions/[id]/messages/route';
import * as sessionRoute from '@/app/api/sessions/[id]/route';
import * as actionsRoute from '@/app/api/sessions/[id]/widgets/[toolCallId]/actions/route';
import * as sessionsRoute from '@/app/api/sessions/route';
import { sessions } from '@/lib/db/schema';
import { appendChunks } from '@/lib/db/turn-log';
import { subscribe } from '@/lib/events/session-events';
import { newId } from '@/lib/ids';
import type { SessionEvent } from '@/lib/protocol';
import { describeEachDatabase } from '@/tests/helpers/databases';
import { type Caller, params, request, useDatabase } from '@/tests/helpers/routes';

process.env.QUANTA_SECRET = 'test-secret';

describeEachDatabase('widget actions route', (database) => {
  beforeAll(() => useDatabase(database()));
  let owner: Caller;
  let sessionId: string;
  let toolCallId: string;

  const read = async (caller: Caller = owner) =>
    (
      await sessionRoute.GET(
        request('GET', `/api/sessions/${sessionId}`, caller),
        params({ id: sessionId }),
      )
    ).json();
  const act = (body: object, caller: Caller = owner, call = toolCallId) =>
    actionsRoute.POST(
      request('POST', `/api/sessions/${sessionId}/widgets/${call}/actions`, caller, body),
      params({ id: sessionId, toolCallId: call }),
    );

  // A session where the demo model opened a counter starting at 3.
  beforeEach(async () => {
    owner = { ownerId: newId() };
    const created = await sessionsRoute.POST(request('POST', '/api/sessions', owner, {}));
    sessionId = (await created.json()).session.id;
    const turn = await messagesRoute.POST(
      request('POST', `/api/sessions/${sessionId}/messages`, owner, {
        message: {
          role: 'user',
          parts: [{ type: 'text', text: 'show me a counter starting at 3' }],
        },
      }),
      params({ id: sessionId }),
    );
    await turn.text();
    const { messages } = await read();
    const part = messages[1].parts.find((p: { type: string }) => p.type === 'tool-show_counter');
    toolCallId = part.toolCallId;
  });

  it('runs the owner’s action on the server, stores the new data and announces it', async () => {
    const events: SessionEvent[] = [];
    const stop = subscribe(sessionId, (event) => events.push(event));
    const first = await act({ action: 'increment', args: { by: 2 }, version: 0 });
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ data: { count: 5 }, version: 1 });
    const second = await act({ action: 'decrement', version: 1 });
    expect(await second.json()).toEqual({ data: { count: 4 }, version: 2 });
    stop();
    expect(events).toEqual([
      { type: 'widget', toolCallId, data: { count: 5 }, version: 1 },
      { type: 'widget', toolCallId, data: { count: 4 }, version: 2 },
    ]);
    // A reload (or the share link) shows the state as it was left.
    expect((await read()).widgetStates).toEqual({
      [toolCallId]: { data: { count: 4 }, version: 2 },
    });
  });

  it('acts on a widget of a running turn before its step stores it', async () => {
    const { messages } = await read();
    const opened = messages[1].parts.find((p: { type: string }) => p.type === 'tool-show_counter');
    // Another session, whose turn (on another instance, say) has opened a counter and goes on
    // with the step's other tools: the step stores its message only at their end.
    const created = await sessionsRoute.POST(request('POST', '/api/sessions', owner, {}));
    const running = (await created.json()).session.id as string;
    const turnId = newId();
    const call = newId();
    const { db } = database();
    await db
      .update(sessions)
      .set({ activeTurnId: turnId, activeTurnStartedAt: new Date() })
      .where(eq(sessions.id, running));
    await appendChunks(db, running, turnId, 0, [
      { type: 'start', messageId: newId(), messageMetadata: { status: 'streaming' } },
      { type: 'start-step' },
      {
        type: 'tool-input-available',
        toolCallId: call,
        toolName: 'show_counter',
        input: opened.input,
      },
      { type: 'tool-output-available', toolCallId: call, output: opened.output },
    ]);
    const response = await actionsRoute.POST(
      request('POST', `/api/sessions/${running}/widgets/${call}/actions`, owner, {
        action: 'increment',
        version: 0,
      }),
      params({ id: running, toolCallId: call }),
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ data: { count: 4 }, version: 1 });
  });

  it('refuses an action on data the client no longer has, answering with the current data', async () => {
    await act({ action: 'increment', version: 0 });
    const stale = await act({ action: 'reset', version: 0 });
    expect(stale.status).toBe(409);
    expect((await stale.json()).error).toMatchObject({
      code: 'stale_version',
      current: { data: { count: 4 }, version: 1 },
    });
    expect((await read()).widgetStates[toolCallId]).toEqual({ data: { count: 4 }, version: 1 });
  });

  it('takes an action chosen on the tool call’s snapshot while that is still the data', async () => {
    expect((await act({ action: 'increment', version: 0 })).status).toBe(200);
    expect((await act({ action: 'decrement', version: 1 })).status).toBe(200);
    // Back at the snapshot's count of 3: a client that never heard of either change is not stale.
    const late = await act({ action: 'increment', version: 0 });
    expect(late.status).toBe(200);
    expect(await late.json()).toEqual({ data: { count: 4 }, version: 3 });
  });

  it('checks the arguments the way tool arguments are checked', async () => {
    const response = await act({ action: 'increment', args: { by: 'lots' }, version: 0 });
    expect(response.status).toBe(400);
    expect((await response.json()).error.message).toBe('by: must be integer');
    const unknownArg = await act({ action: 'reset', args: { hard: true }, version: 0 });
    expect((await unknownArg.json()).error.message).toBe('hard: is not allowed');
  });

  it.each(['constructor', '__proto__', 'toString', 'hasOwnProperty'])(
    'finds no action named %s (own actions only)',
    async (name) => {
      const response = await act({ action: name, version: 0 });
      expect(response.status).toBe(404);
      expect((await response.json()).error.message).toBe(
        `The counter widget has no action "${name}".`,
      );
    },
  );

  it('refuses an action whose data would pass the size limit, changing nothing', async () => {
    process.env.QUANTA_MAX_WIDGET_DATA_BYTES = '10';
    try {
      const response = await act({ action: 'increment', args: { by: 10 }, version: 0 });
      expect(response.status).toBe(413);
      expect(await response.json()).toEqual({
        error: {
          code: 'widget_data_too_large',
          message:
            "The counter widget's data would be larger than 10 bytes, so it was not changed.",
        },
      });
    } finally {
      delete process.env.QUANTA_MAX_WIDGET_DATA_BYTES;
    }
    expect((await act({ action: 'increment', version: 0 })).status).toBe(200);
  });

  it('answers 404 with a clear message for an unknown action or tool call', async () => {
    const action = await act({ action: 'explode', version: 0 });
    expect(action.status).toBe(404);
    expect((await action.json()).error.message).toBe('The counter widget has no action "explode".');
    const call = await act({ action: 'reset', version: 0 }, owner, 'call_nope');
    expect(call.status).toBe(404);
    expect((await call.json()).error.message).toBe(
      'No widget was opened by tool call call_nope here.',
    );
  });

  it('refuses a malformed body', async () => {
    for (const body of [
      { action: 'reset' },
      { action: '', version: 0 },
      { action: 'reset', version: -1 },
    ]) {
      expect((await act(body)).status).toBe(400);
    }
  });

  it('forgets the state of a widget whose message an edit dropped', async () => {
    await act({ action: 'increment', version: 0 });
    const { messages } = await read();
    const edit = await messagesRoute.POST(
      request('POST', `/api/sessions/${sessionId}/messages`, owner, {
        trigger: 'edit',
        message: {
          id: messages[0].id,
          role: 'user',
          parts: [{ type: 'text', text: 'what is 1 + 1' }],
        },
      }),
      params({ id: sessionId }),
    );
    await edit.text();
    expect((await read()).widgetStates).toEqual({});
  });

  describe('who may act', () => {
    const share = (visibility: 'public' | 'private') =>
      sessionRoute.PATCH(
        request('PATCH', `/api/sessions/${sessionId}`, owner, { visibility }),
        params({ id: sessionId }),
      );

    it('a reader of a public session sees the widget state but gets 404 for an action', async () => {
      await share('public');
      await act({ action: 'increment', version: 0 });
      const reader = { ownerId: newId() };
      expect((await read(reader)).widgetStates[toolCallId].data).toEqual({ count: 4 });
      const response = await act({ action: 'reset', version: 1 }, reader);
      expect(response.status).toBe(404);
      expect((await read()).widgetStates[toolCallId].data).toEqual({ count: 4 });
    });

    it('a stranger gets 404 on a private session, and nobody without an identity gets in', async () => {
      expect((await act({ action: 'reset', version: 0 }, { ownerId: newId() })).status).toBe(404);
      expect((await act({ action: 'reset', version: 0 }, {})).status).toBe(401);
      expect((await read()).widgetStates).toEqual({});
    });
  });
});
