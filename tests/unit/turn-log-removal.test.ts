import type { UIMessageChunk } from 'ai';
import { beforeAll, expect, it, onTestFinished, vi } from 'vitest';
import * as messagesRoute from '@/app/api/sessions/[id]/messages/route';
import * as sessionsRoute from '@/app/api/sessions/route';
import { appendChunks, readChunks } from '@/lib/db/turn-log';
import { newId } from '@/lib/ids';
import { describeEachDatabase } from '@/tests/helpers/databases';
import { holdNextTurn, nextTurnOn } from '@/tests/helpers/held-model';
import { params, request, useDatabase } from '@/tests/helpers/routes';
import { slowAnswer, turnEnded } from '@/tests/helpers/turns';
import { uiChunks } from '@/tests/helpers/ui-stream';

process.env.QUANTA_SECRET = 'test-secret';

vi.mock('@/lib/agent/models', async (importOriginal) =>
  (await import('@/tests/helpers/held-model')).withHeldModels(
    importOriginal<typeof import('@/lib/agent/models')>,
  ),
);

// A file of its own: elsewhere the removals come due on the real clock, 30 s after each turn,
// and a file that ran longer would see them fail against a database it had closed.
describeEachDatabase('the removal of ended turns’ logs', (database) => {
  beforeAll(() => useDatabase(database()));
  const owner = { ownerId: newId() };
  const db = () => database().db;

  it('removes them 30 s after a turn that wrote a log, and after no other', async () => {
    // The clock moves as it does, and past the 30 s the logs are kept for when it is told to.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'], shouldAdvanceTime: true });
    // An instance alone: among instances, every turn logs its last chunks for late readers.
    vi.stubEnv('REDIS_URL', '');
    onTestFinished(() => {
      vi.useRealTimers();
      vi.unstubAllEnvs();
    });
    const created = await sessionsRoute.POST(request('POST', '/api/sessions', owner, {}));
    const { id } = (await created.json()).session as { id: string };
    const prompt = () =>
      messagesRoute.POST(
        request('POST', `/api/sessions/${id}/messages`, owner, {
          message: { role: 'user', parts: [{ type: 'text', text: 'hello' }] },
        }),
        params({ id }),
      );
    /** A log an ended turn left, as the ones kept for readers on other instances. */
    const endedTurnLog = async () => {
      const turnId = newId();
      const begun: UIMessageChunk = { type: 'start', messageId: newId() };
      await appendChunks(db(), id, turnId, 0, [begun]);
      return turnId;
    };
    const answered = async (posting: Promise<Response>) => {
      const ended = turnEnded(id);
      await uiChunks(await posting).rest();
      await ended;
    };
    // A short answer on an instance alone writes no log, so nothing is left to remove after it.
    const short = holdNextTurn();
    const posting = prompt();
    await short.started;
    short.release();
    await answered(posting);
    const kept = await endedTurnLog();
    await vi.advanceTimersByTimeAsync(31_000);
    expect(await readChunks(db(), kept)).not.toEqual([]);
    // One that crosses the log's first second has written some.
    nextTurnOn(slowAnswer().model);
    await answered(prompt());
    const later = await endedTurnLog();
    expect(await readChunks(db(), later)).not.toEqual([]);
    await vi.advanceTimersByTimeAsync(31_000);
    await vi.waitFor(async () => {
      expect(await readChunks(db(), later)).toEqual([]);
    });
    expect(await readChunks(db(), kept)).toEqual([]);
  }, 15_000);
});
