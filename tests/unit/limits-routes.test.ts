import { afterEach, beforeAll, beforeEach, expect, it, vi } from 'vitest';
import * as eventsRoute from '@/app/api/sessions/[id]/events/route';
import * as forkRoute from '@/app/api/sessions/[id]/fork/route';
import * as messagesRoute from '@/app/api/sessions/[id]/messages/route';
import * as sessionRoute from '@/app/api/sessions/[id]/route';
import * as streamRoute from '@/app/api/sessions/[id]/stream/route';
import * as sessionsRoute from '@/app/api/sessions/route';
import type { OwnerLimits } from '@/lib/config';
import { newId } from '@/lib/ids';
import { Limiter, setLimiter } from '@/lib/limits';
import { MemoryLimitStore } from '@/lib/limits/memory-store';
import { describeEachDatabase } from '@/tests/helpers/databases';
import { holdNextTurn } from '@/tests/helpers/held-model';
import { type Caller, params, request, useDatabase } from '@/tests/helpers/routes';

process.env.QUANTA_SECRET = 'test-secret';

vi.mock('@/lib/agent/models', async (importOriginal) =>
  (await import('@/tests/helpers/held-model')).withHeldModels(
    importOriginal<typeof import('@/lib/agent/models')>,
  ),
);

const roomy: OwnerLimits = {
  requestsPerMinute: 1_000,
  turnsPerMinute: 1_000,
  sessionsPerMinute: 1_000,
  concurrentTurns: 100,
  eventStreams: 100,
};

describeEachDatabase('per-owner limits on the routes', (database) => {
  beforeAll(() => useDatabase(database()));
  let owner: Caller;
  let previous: Limiter | undefined;
  beforeEach(() => {
    owner = { ownerId: newId() };
  });
  afterEach(() => {
    if (previous) setLimiter(previous);
    previous = undefined;
  });
  /** Limits as given, the rest roomy, in a fresh store. */
  const limit = (limits: Partial<OwnerLimits>) => {
    previous = setLimiter(new Limiter(new MemoryLimitStore(), { ...roomy, ...limits }));
  };

  const create = (caller = owner) =>
    sessionsRoute.POST(request('POST', '/api/sessions', caller, {}));
  const prompt = (id: string) =>
    messagesRoute.POST(
      request('POST', `/api/sessions/${id}/messages`, owner, {
        message: { role: 'user', parts: [{ type: 'text', text: 'hello' }] },
      }),
      params({ id }),
    );
  const newSession = async () => (await (await create()).json()).session.id as string;

  async function expectRefused(response: Response, code: string, message: RegExp) {
    expect(response.status).toBe(429);
    expect(Number(response.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    const { error } = await response.json();
    expect(error.code).toBe(code);
    expect(error.message).toMatch(message);
  }

  it('refuses sessions created (new or forked) past the limit, per owner', async () => {
    limit({ sessionsPerMinute: 2 });
    const first = (await (await create()).json()).session.id;
    expect((await create()).status).toBe(201);
    await expectRefused(await create(), 'too_many_sessions', /at most 2 a minute/);
    await expectRefused(
      await forkRoute.POST(
        request('POST', `/api/sessions/${first}/fork`, owner),
        params({ id: first }),
      ),
      'too_many_sessions',
      /at most 2 a minute/,
    );
    // Someone else is not held back by this owner's count.
    expect((await create({ ownerId: newId() })).status).toBe(201);
  });

  it('refuses any request past the requests a minute', async () => {
    limit({ requestsPerMinute: 3 });
    const list = () => sessionsRoute.GET(request('GET', '/api/sessions', owner));
    for (let i = 0; i < 3; i++) expect((await list()).status).toBe(200);
    await expectRefused(await list(), 'too_many_requests', /at most 3 a minute/);
  });

  it('refuses a turn past the turns a minute, before anything is stored', async () => {
    limit({ turnsPerMinute: 1 });
    const id = await newSession();
    await (await prompt(id)).text();
    await expectRefused(await prompt(id), 'too_many_turns', /at most 1 a minute/);
    const { messages } = await (
      await sessionRoute.GET(request('GET', `/api/sessions/${id}`, owner), params({ id }))
    ).json();
    expect(messages).toHaveLength(2);
  });

  it('refuses a turn while the owner’s other turns hold every slot, and takes it once one ends', async () => {
    limit({ concurrentTurns: 1 });
    const [a, b] = [await newSession(), await newSession()];
    const turn = holdNextTurn();
    const running = await prompt(a);
    await turn.started;
    await expectRefused(await prompt(b), 'too_many_running_turns', /at most 1/);
    turn.release();
    await running.text();
    const next = await prompt(b);
    expect(next.status).toBe(200);
    await next.text();
  });

  it('refuses an event stream past the limit, and frees its slot when one closes', async () => {
    limit({ eventStreams: 1 });
    const id = await newSession();
    const watch = (signal?: AbortSignal) =>
      eventsRoute.GET(
        new Request(request('GET', `/api/sessions/${id}/events`, owner), { signal }),
        params({ id }),
      );
    const first = new AbortController();
    expect((await watch(first.signal)).status).toBe(200);
    await expectRefused(await watch(), 'too_many_event_streams', /at most 1/);
    first.abort();
    await vi.waitFor(async () => {
      const again = new AbortController();
      const response = await watch(again.signal);
      again.abort();
      expect(response.status).toBe(200);
    });
  });

  it('counts a reader of a running turn as a live stream, and frees it when the reader leaves', async () => {
    limit({ eventStreams: 1 });
    const id = await newSession();
    const turn = holdNextTurn();
    const running = await prompt(id);
    await turn.started;
    const read = (signal?: AbortSignal) =>
      streamRoute.GET(
        new Request(request('GET', `/api/sessions/${id}/stream`, owner), { signal }),
        params({ id }),
      );
    const first = await read();
    expect(first.status).toBe(200);
    await expectRefused(await read(), 'too_many_event_streams', /at most 1/);
    await first.body?.cancel();
    const again = await read();
    expect(again.status).toBe(200);
    turn.release();
    await Promise.all([running.text(), again.text()]);
    // The reader that read the turn to its end gave its slot back too.
    const after = await eventsRoute.GET(
      request('GET', `/api/sessions/${id}/events`, owner),
      params({ id }),
    );
    expect(after.status).toBe(200);
    await after.body?.cancel();
  });
});
