import { afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import * as eventsRoute from '@/app/api/sessions/[id]/events/route';
import * as messagesRoute from '@/app/api/sessions/[id]/messages/route';
import * as sessionRoute from '@/app/api/sessions/[id]/route';
import * as sessionsRoute from '@/app/api/sessions/route';
import { getDb } from '@/lib/db/client';
import { listenerCount, publish } from '@/lib/events/session-events';
import { newId } from '@/lib/ids';
import type { SessionEvent } from '@/lib/protocol';
import { openEvents, sessionEventStream } from '@/lib/sessions/events-service';
import { describeEachDatabase } from '@/tests/helpers/databases';
import { type Caller, params, request, useDatabase } from '@/tests/helpers/routes';

process.env.QUANTA_SECRET = 'test-secret';

const WAIT_MS = 5_000;

/** Reads a server-sent event stream as it comes: its raw text and the JSON of its `data:` lines. */
function sse(response: Response) {
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let text = '';
  let done = false;
  const events = (): SessionEvent[] =>
    text
      .split('\n\n')
      .slice(0, -1) // the last block may be incomplete
      .flatMap((block) => block.split('\n'))
      .filter((line) => line.startsWith('data: '))
      .map((line) => JSON.parse(line.slice('data: '.length)));
  /** Reads until `enough` holds of what was read, or the stream ends; fails after WAIT_MS. */
  async function until(enough: () => boolean): Promise<void> {
    const deadline = Date.now() + WAIT_MS;
    while (!enough() && !done) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`Timed out; the stream so far: ${JSON.stringify(text)}`);
      const chunk = await Promise.race([
        reader.read(),
        new Promise<never>((_, reject) =>
          setTimeout(() => reject(new Error(`Timed out; so far: ${JSON.stringify(text)}`)), left),
        ),
      ]);
      if (chunk.done) done = true;
      else text += decoder.decode(chunk.value, { stream: true });
    }
  }
  return {
    text: () => text,
    events,
    until,
    /** Resolves once the stream has ended. */
    ended: () => until(() => false),
    isDone: () => done,
    cancel: () => reader.cancel(),
  };
}

describeEachDatabase('session event stream', (database) => {
  beforeAll(() => useDatabase(database()));
  let owner: Caller;
  const aborts: AbortController[] = [];
  beforeEach(() => {
    owner = { ownerId: newId() };
  });
  // No stream outlives its test (each would otherwise keep a listener and a heartbeat).
  afterEach(() => {
    for (const controller of aborts.splice(0)) controller.abort();
  });

  async function createSession(visibility: 'private' | 'public' = 'private') {
    const created = await sessionsRoute.POST(request('POST', '/api/sessions', owner, {}));
    const { id } = (await created.json()).session as { id: string };
    if (visibility === 'public') await setVisibility(id, visibility);
    return id;
  }

  async function setVisibility(id: string, visibility: 'private' | 'public') {
    const response = await sessionRoute.PATCH(
      request('PATCH', `/api/sessions/${id}`, owner, { visibility }),
      params({ id }),
    );
    expect(response.status).toBe(200);
  }

  function watchRequest(id: string, caller: Caller) {
    const controller = new AbortController();
    aborts.push(controller);
    const watch = new Request(request('GET', `/api/sessions/${id}/events`, caller), {
      signal: controller.signal,
    });
    return { watch, controller };
  }

  async function watch(id: string, caller: Caller) {
    const { watch, controller } = watchRequest(id, caller);
    const response = await eventsRoute.GET(watch, params({ id }));
    return { response, controller };
  }

  async function runTurn(id: string, text: string) {
    const response = await messagesRoute.POST(
      request('POST', `/api/sessions/${id}/messages`, owner, {
        message: { role: 'user', parts: [{ type: 'text', text }] },
      }),
      params({ id }),
    );
    expect(response.status).toBe(200);
    return response.text();
  }

  type TurnEvent = Extract<SessionEvent, { type: 'turn' }>;
  const turnEvents = (events: SessionEvent[]) =>
    events.filter((event): event is TurnEvent => event.type === 'turn');

  it('streams to the owner, and tells of a turn starting and ending', async () => {
    const id = await createSession();
    const { response, controller } = await watch(id, owner);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(response.headers.get('cache-control')).toMatch(/no-cache/);
    expect(response.headers.get('x-accel-buffering')).toBe('no');
    const stream = sse(response);
    await stream.until(() => stream.text().includes('\n\n'));
    expect(stream.text()).toMatch(/^retry: 3000\n\n/);
    expect(listenerCount(id)).toBe(1);

    const answer = await runTurn(id, 'what is 2 + 2');
    expect(answer).toContain('2 + 2 = 4');
    await stream.until(() => turnEvents(stream.events()).length >= 2);
    expect(turnEvents(stream.events())).toEqual([
      { type: 'turn', status: 'started' },
      { type: 'turn', status: 'ended' },
    ]);
    // By the time a viewer hears "ended", the session says so and holds the answer.
    const { session, messages } = await (
      await sessionRoute.GET(request('GET', `/api/sessions/${id}`, owner), params({ id }))
    ).json();
    expect(session.turnActive).toBe(false);
    expect(messages.map((m: { role: string }) => m.role)).toEqual(['user', 'assistant']);

    controller.abort();
    await stream.ended();
    expect(listenerCount(id)).toBe(0);
  });

  it('says nothing of a turn refused after it was claimed, and frees the session', async () => {
    const id = await createSession();
    const { response } = await watch(id, owner);
    const stream = sse(response);
    const refused = await messagesRoute.POST(
      request('POST', `/api/sessions/${id}/messages`, owner, { trigger: 'regenerate' }),
      params({ id }),
    );
    expect(refused.status).toBe(400);
    await runTurn(id, 'hello');
    await stream.until(() => turnEvents(stream.events()).length >= 2);
    expect(turnEvents(stream.events()).map((event) => event.status)).toEqual(['started', 'ended']);
  });

  it('carries widget events as they were published', async () => {
    const id = await createSession();
    const { response } = await watch(id, owner);
    const stream = sse(response);
    await stream.until(() => listenerCount(id) === 1);
    const event = { type: 'widget', toolCallId: 'call_1', data: { count: 4 }, version: 3 } as const;
    publish(id, event);
    publish(newId(), { type: 'turn', status: 'started' }); // another session's: not seen
    await stream.until(() => stream.events().length >= 1);
    expect(stream.events()).toEqual([event]);
  });

  it('streams a public session to another owner and to an anonymous reader', async () => {
    const id = await createSession('public');
    const other = await watch(id, { ownerId: newId() });
    const anonymous = await watch(id, {});
    expect(other.response.status).toBe(200);
    expect(anonymous.response.status).toBe(200);
    expect(listenerCount(id)).toBe(2);
    const streams = [sse(other.response), sse(anonymous.response)];
    await runTurn(id, 'hello');
    for (const stream of streams) {
      await stream.until(() => turnEvents(stream.events()).length >= 2);
      expect(turnEvents(stream.events())).toHaveLength(2);
    }
    other.controller.abort();
    anonymous.controller.abort();
    for (const stream of streams) await stream.ended();
    expect(listenerCount(id)).toBe(0);
  });

  it.each([
    ['another owner', () => ({ ownerId: newId() })],
    ['an anonymous caller', () => ({})],
  ])('answers 404 to %s on a private session, and listens to nothing', async (_who, caller) => {
    const id = await createSession();
    const { response } = await watch(id, caller());
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({
      error: { code: 'not_found', message: 'No such session.' },
    });
    expect(listenerCount(id)).toBe(0);
  });

  it('answers 404 for an unknown or malformed session id', async () => {
    for (const id of [newId(), 'nope']) {
      const { response } = await watch(id, owner);
      expect(response.status).toBe(404);
      expect(listenerCount(id)).toBe(0);
    }
  });

  it('ends the stream and removes its listener when the request is aborted', async () => {
    const id = await createSession();
    const first = await watch(id, owner);
    const second = await watch(id, owner);
    expect(listenerCount(id)).toBe(2);
    const stream = sse(first.response);
    first.controller.abort();
    await stream.ended();
    expect(stream.isDone()).toBe(true);
    expect(listenerCount(id)).toBe(1);
    second.controller.abort();
    expect(listenerCount(id)).toBe(0);
    // Nothing is sent to a stream that is gone: a later event is harmless.
    publish(id, { type: 'turn', status: 'started' });
  });

  it('removes its listener when the reader cancels the stream', async () => {
    const id = await createSession();
    const { response } = await watch(id, owner);
    expect(listenerCount(id)).toBe(1);
    await sse(response).cancel();
    expect(listenerCount(id)).toBe(0);
  });

  it('listens to nothing when the request was aborted before the stream opened', async () => {
    const id = await createSession();
    const { watch: early, controller } = watchRequest(id, owner);
    controller.abort();
    const response = await eventsRoute.GET(early, params({ id }));
    const stream = sse(response);
    await stream.ended();
    expect(stream.text()).toBe('retry: 3000\n\n');
    expect(listenerCount(id)).toBe(0);
  });

  it('pings every heartbeat, and ends a reader’s stream once the session is made private', async () => {
    const id = await createSession('public');
    const db = await getDb();
    const reader = watchRequest(id, { ownerId: newId() });
    const mine = watchRequest(id, owner);
    const readerStream = sse(await openEvents(db, reader.watch, id, { heartbeatMs: 20 }));
    const ownerStream = sse(await openEvents(db, mine.watch, id, { heartbeatMs: 20 }));
    await readerStream.until(() => readerStream.text().includes(': ping\n\n'));
    expect(listenerCount(id)).toBe(2);

    await setVisibility(id, 'private');
    await readerStream.ended();
    expect(listenerCount(id)).toBe(1);
    // The owner still may read it: their stream goes on.
    const pings = () => ownerStream.text().split(': ping').length;
    const before = pings();
    await ownerStream.until(() => pings() > before + 2);
    expect(ownerStream.isDone()).toBe(false);
    mine.controller.abort();
    await ownerStream.ended();
    expect(listenerCount(id)).toBe(0);
  });

  it('ends a reader’s stream at once when the session is made private, without telling them', async () => {
    const id = await createSession('public');
    // The route's own heartbeat (15 s): only the change itself can end the stream in time.
    const readerStream = sse((await watch(id, { ownerId: newId() })).response);
    const ownerStream = sse((await watch(id, owner)).response);
    await readerStream.until(() => readerStream.text().includes('retry:'));
    const changed = Date.now();
    await setVisibility(id, 'private');
    await readerStream.ended();
    expect(Date.now() - changed).toBeLessThan(1_000);
    expect(readerStream.events()).toEqual([]);
    await ownerStream.until(() => ownerStream.events().length > 0);
    expect(ownerStream.events()).toEqual([{ type: 'visibility', visibility: 'private' }]);
  });

  it('ends every stream, the owner’s too, when the session is deleted', async () => {
    const id = await createSession('public');
    const streams = [sse((await watch(id, owner)).response), sse((await watch(id, {})).response)];
    await sessionRoute.DELETE(request('DELETE', `/api/sessions/${id}`, owner), params({ id }));
    await Promise.all(streams.map((stream) => stream.ended()));
    expect(listenerCount(id)).toBe(0);
  });

  it('asks once more as it subscribes, so access lost just before is not missed', async () => {
    const id = await createSession();
    const stream = sse(
      new Response(
        sessionEventStream(id, new AbortController().signal, {
          heartbeatMs: 60_000,
          stillAllowed: async () => false,
        }),
      ),
    );
    await stream.ended();
    expect(listenerCount(id)).toBe(0);
  });
});
