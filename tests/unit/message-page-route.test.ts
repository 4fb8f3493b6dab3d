import { beforeAll, beforeEach, expect, it } from 'vitest';
import * as messagesRoute from '@/app/api/sessions/[id]/messages/route';
import * as sessionRoute from '@/app/api/sessions/[id]/route';
import { appendMessages, type NewMessage } from '@/lib/db/messages';
import { createSession, updateSession } from '@/lib/db/sessions';
import { writeWidgetState } from '@/lib/db/widget-states';
import { newId } from '@/lib/ids';
import type { MessagePage, SessionDetail } from '@/lib/protocol';
import { describeEachDatabase } from '@/tests/helpers/databases';
import { type Caller, params, request, useDatabase } from '@/tests/helpers/routes';

process.env.QUANTA_SECRET = 'test-secret';

/** Message `n` of a seeded session: "m0", "m1", …; every tenth opens a widget (call `c<n>`). */
function message(n: number): NewMessage {
  const text = { type: 'text' as const, text: `m${n}` };
  if (n % 10 !== 0) return { role: n % 2 === 0 ? 'user' : 'assistant', parts: [text] };
  return {
    role: 'assistant',
    parts: [
      {
        type: 'tool-show_counter',
        toolCallId: `c${n}`,
        state: 'output-available',
        input: {},
        output: {
          isError: false,
          modelText: 'shown',
          durationMs: 1,
          ui: { kind: 'widget', label: 'Open', widget: 'counter', data: { count: 0 } },
        },
      },
      text,
    ],
  };
}

const texts = (page: MessagePage) =>
  page.messages.map((m) => m.parts.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join(''));
const range = (from: number, to: number) =>
  Array.from({ length: to - from }, (_, index) => `m${from + index}`);

describeEachDatabase('GET /api/sessions/:id/messages', (database) => {
  beforeAll(() => useDatabase(database()));
  let owner: Caller;
  let id: string;
  let ids: string[];

  beforeEach(async () => {
    owner = { ownerId: newId() };
    id = (await createSession(database().db, { ownerId: owner.ownerId as string })).id;
    const rows = await appendMessages(
      database().db,
      id,
      Array.from({ length: 120 }, (_, n) => message(n)),
    );
    ids = rows.map((row) => row.id);
  });

  const get = (query: string, caller: Caller = owner, session = id) =>
    messagesRoute.GET(
      request('GET', `/api/sessions/${session}/messages${query}`, caller),
      params({ id: session }),
    );
  const page = async (query: string, caller?: Caller) => {
    const response = await get(query, caller);
    expect(response.status).toBe(200);
    return (await response.json()) as MessagePage;
  };

  it('pages back from the newest messages, oldest first, to the first', async () => {
    const newest = await page('');
    expect(texts(newest)).toEqual(range(70, 120));
    expect(newest.hasEarlier).toBe(true);

    const before = await page(`?before=${newest.messages[0]?.id}`);
    expect(texts(before)).toEqual(range(20, 70));
    expect(before.hasEarlier).toBe(true);

    const first = await page(`?before=${before.messages[0]?.id}`);
    expect(texts(first)).toEqual(range(0, 20));
    expect(first.hasEarlier).toBe(false);
    expect(first.messages[0]?.id).toBe(ids[0]);

    expect(await page(`?before=${ids[0]}`)).toEqual({
      messages: [],
      hasEarlier: false,
      widgetStates: {},
    });
  });

  it('takes a page size from 1 to 200', async () => {
    const two = await page(`?before=${ids[10]}&limit=2`);
    expect(texts(two)).toEqual(['m8', 'm9']);
    expect(two.hasEarlier).toBe(true);
    expect(texts(await page(`?before=${ids[2]}&limit=2`))).toEqual(['m0', 'm1']);
    expect((await page('?limit=200')).messages).toHaveLength(120);

    for (const limit of ['0', '201', '2.5', 'ten', '', '-1']) {
      const response = await get(`?limit=${limit}`);
      expect(response.status).toBe(400);
      expect((await response.json()).error.message).toBe('limit: must be an integer from 1 to 200');
    }
  });

  it('refuses a malformed message id with 400 and an unknown one with 404', async () => {
    const malformed = await get('?before=not-an-id');
    expect(malformed.status).toBe(400);
    expect((await malformed.json()).error.message).toBe('before: must be a message id');

    const other = (await createSession(database().db, { ownerId: owner.ownerId as string })).id;
    const [elsewhere] = await appendMessages(database().db, other, [message(1)]);
    for (const unknown of [newId(), elsewhere?.id]) {
      const response = await get(`?before=${unknown}`);
      expect(response.status).toBe(404);
      expect((await response.json()).error.code).toBe('message_not_found');
    }
  });

  it('answers whoever may read the session: its owner, or anyone when it is public', async () => {
    const stranger = { ownerId: newId() };
    expect((await get('', stranger)).status).toBe(404);
    expect((await get('', {})).status).toBe(404);
    expect((await get('', owner, newId())).status).toBe(404);

    await updateSession(database().db, id, { visibility: 'public' });
    expect(texts(await page(`?before=${ids[3]}`, stranger))).toEqual(range(0, 3));
    expect(texts(await page(`?before=${ids[3]}`, {}))).toEqual(range(0, 3));
  });

  it('carries the states of the widgets its messages opened, and the session’s own', async () => {
    const state = (key: string, count: number) =>
      writeWidgetState(database().db, {
        sessionId: id,
        key,
        widgetId: key.startsWith('session:') ? 'tasks' : 'counter',
        data: { count },
        version: 0,
      });
    await state('c10', 1);
    await state('c110', 2);
    await state('session:tasks', 3);

    expect((await page('')).widgetStates).toEqual({
      c110: { data: { count: 2 }, version: 1 },
      'session:tasks': { data: { count: 3 }, version: 1 },
    });
    expect((await page(`?before=${ids[20]}`)).widgetStates).toEqual({
      c10: { data: { count: 1 }, version: 1 },
      'session:tasks': { data: { count: 3 }, version: 1 },
    });
  });
});

describeEachDatabase('GET /api/sessions/:id?limit=', (database) => {
  beforeAll(() => useDatabase(database()));

  it('gives the newest messages and whether earlier ones were left out; all without a limit', async () => {
    const owner = { ownerId: newId() };
    const { id } = await createSession(database().db, { ownerId: owner.ownerId });
    await appendMessages(
      database().db,
      id,
      Array.from({ length: 5 }, (_, n) => message(n + 1)),
    );
    const read = async (query: string) => {
      const response = await sessionRoute.GET(
        request('GET', `/api/sessions/${id}${query}`, owner),
        params({ id }),
      );
      return { status: response.status, body: (await response.json()) as SessionDetail };
    };

    const newest = await read('?limit=2');
    expect(texts(newest.body)).toEqual(['m4', 'm5']);
    expect(newest.body.hasEarlier).toBe(true);
    expect(texts((await read('?limit=5')).body)).toEqual(range(1, 6));
    expect((await read('?limit=5')).body.hasEarlier).toBe(false);
    const all = await read('');
    expect(texts(all.body)).toEqual(range(1, 6));
    expect(all.body.hasEarlier).toBe(false);
    expect((await read('?limit=0')).status).toBe(400);
    expect((await read('?limit=201')).status).toBe(400);
  });
});
