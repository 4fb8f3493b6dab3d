import type { LanguageModelV3Prompt } from '@ai-sdk/provider';
import { afterEach, beforeAll, beforeEach, expect, it, vi } from 'vitest';
import * as messagesRoute from '@/app/api/sessions/[id]/messages/route';
import * as stopRoute from '@/app/api/sessions/[id]/stop/route';
import * as sessionsRoute from '@/app/api/sessions/route';
import { estimateTokens } from '@/lib/agent/compaction';
import { appendMessages, listMessages, truncateMessages } from '@/lib/db/messages';
import { getSession } from '@/lib/db/sessions';
import { releaseTurn } from '@/lib/db/turns';
import { newId } from '@/lib/ids';
import { describeEachDatabase } from '@/tests/helpers/databases';
import { recordingModel, turnModel } from '@/tests/helpers/recording-model';
import { type Caller, params, request, useDatabase } from '@/tests/helpers/routes';
import { uiChunks } from '@/tests/helpers/ui-stream';

process.env.QUANTA_SECRET = 'test-secret';

const SUMMARY = 'SUMMARY: the user is Ada, who asked 30 questions about q.';
const isSummaryCall = (prompt: LanguageModelV3Prompt) =>
  prompt.some(({ role, content }) => role === 'system' && content.includes('You summarise'));

vi.mock('@/lib/agent/models', async (importOriginal) =>
  (await import('@/tests/helpers/recording-model')).withTurnModel(
    importOriginal<typeof import('@/lib/agent/models')>,
  ),
);

const BUDGET = 6_000;

describeEachDatabase('compaction over the routes', (database) => {
  beforeAll(() => useDatabase(database()));
  let owner: Caller;
  let recorded: ReturnType<typeof recordingModel>;
  beforeEach(() => {
    owner = { ownerId: newId() };
    recorded = recordingModel((prompt) => (isSummaryCall(prompt) ? SUMMARY : 'An answer.'));
    turnModel.current = recorded.model;
    process.env.QUANTA_CONTEXT_TOKENS = String(BUDGET);
  });
  afterEach(() => {
    delete process.env.QUANTA_CONTEXT_TOKENS;
  });
  const db = () => database().db;

  /** A session of `turns` stored questions and answers, each message about 1,000 characters. */
  async function longSession(turns: number) {
    const response = await sessionsRoute.POST(request('POST', '/api/sessions', owner, {}));
    const { id } = (await response.json()).session as { id: string };
    await appendMessages(
      db(),
      id,
      Array.from({ length: turns }, (_, turn) => [
        {
          role: 'user' as const,
          parts: [{ type: 'text' as const, text: `Question ${turn}: ${'q'.repeat(1_000)}` }],
        },
        {
          role: 'assistant' as const,
          parts: [{ type: 'text' as const, text: `Answer ${turn}: ${'a'.repeat(1_000)}` }],
        },
      ]).flat(),
    );
    return id;
  }

  const send = async (id: string, body: object) => {
    const response = await messagesRoute.POST(
      request('POST', `/api/sessions/${id}/messages`, owner, body),
      params({ id }),
    );
    expect(response.status).toBe(200);
    return uiChunks(response).rest();
  };
  const prompt = (text: string) => ({ message: { role: 'user', parts: [{ type: 'text', text }] } });
  const turnCalls = () => recorded.calls.filter(({ prompt }) => !isSummaryCall(prompt));
  const summaryCalls = () => recorded.calls.filter(({ prompt }) => isSummaryCall(prompt));

  it('sends at most the budget: a summary of the older turns and the newest verbatim', async () => {
    const id = await longSession(30);
    await send(id, prompt('What was my first question?'));

    expect(summaryCalls().length).toBeGreaterThan(0);
    const [call] = turnCalls();
    const sent = JSON.stringify(call?.prompt);
    expect(estimateTokens(call?.prompt) + estimateTokens(call?.tools ?? [])).toBeLessThanOrEqual(
      BUDGET,
    );
    // The answer is written from the summary, which the system prompt carries...
    expect(sent).toContain(SUMMARY);
    // ...and from the newest turns, verbatim, ending with the prompt.
    expect(sent).not.toContain('Question 0:');
    expect(sent).toContain('Question 29:');
    expect(sent).toContain('What was my first question?');

    const session = await getSession(db(), id);
    expect(session?.contextSummary?.text).toBe(SUMMARY);
    const stored = await listMessages(db(), id);
    // The transcript keeps every message; the answer says the earlier ones were summarised.
    expect(stored).toHaveLength(62);
    expect(stored.at(-1)?.metadata).toMatchObject({ status: 'complete' });
    expect(stored.at(-1)?.parts[0]).toEqual({
      type: 'data-summary',
      id: 'summary',
      data: { status: 'done' },
    });
    expect(stored.find(({ position }) => position === session?.contextSummary?.through)?.role).toBe(
      'user',
    );
  });

  it('streams that it is summarising before the answer', async () => {
    const id = await longSession(30);
    const chunks = await send(id, prompt('Go on'));
    const shown = chunks
      .filter(({ type }) => type === 'data-summary' || type === 'text-start')
      .map((chunk) => ('data' in chunk ? chunk.data : chunk.type));
    expect(shown).toEqual([{ status: 'summarising' }, { status: 'done' }, 'text-start']);
  });

  it('stops while summarising: nothing is kept of the summary, the session takes prompts', async () => {
    const id = await longSession(30);
    let summarising = () => {};
    const asked = new Promise<void>((resolve) => {
      summarising = resolve;
    });
    recorded = recordingModel((prompt, { abortSignal }) => {
      if (!isSummaryCall(prompt)) return 'An answer.';
      summarising();
      return new Promise((_, reject) =>
        abortSignal?.addEventListener('abort', () => reject(abortSignal.reason), { once: true }),
      );
    });
    turnModel.current = recorded.model;
    const answer = send(id, prompt('Go on'));
    await asked;
    const stopped = await stopRoute.POST(
      request('POST', `/api/sessions/${id}/stop`, owner),
      params({ id }),
    );
    expect(await stopped.json()).toEqual({ stopped: true });
    await answer;
    expect((await getSession(db(), id))?.contextSummary).toBeNull();
    const last = (await listMessages(db(), id)).at(-1);
    expect(last).toMatchObject({ role: 'assistant', parts: [], metadata: { status: 'stopped' } });
    expect(turnCalls()).toEqual([]);
  });

  it('a turn taken for dead while summarising keeps no summary and asks the model no more', async () => {
    const id = await longSession(30);
    let summarising = () => {};
    const asked = new Promise<void>((resolve) => {
      summarising = resolve;
    });
    // Every summary call (there can be several) waits until the session is taken.
    let finish: (text: string) => void = () => {};
    const finished = new Promise<string>((resolve) => {
      finish = resolve;
    });
    recorded = recordingModel((prompt) => {
      if (!isSummaryCall(prompt)) return 'An answer.';
      summarising();
      return finished;
    });
    turnModel.current = recorded.model;
    const answer = send(id, prompt('Go on'));
    await asked;
    // Closed as dead elsewhere (its Stop not heard), and the transcript then edited away.
    const turnId = (await getSession(db(), id))?.activeTurnId as string;
    await releaseTurn(db(), id, turnId);
    await truncateMessages(db(), id, 0);
    finish(SUMMARY);
    const chunks = await answer;
    // Stopped, and its final save refused: its stream ends as its closer stored it.
    expect(chunks.slice(-2)).toEqual([
      {
        type: 'message-metadata',
        messageMetadata: expect.objectContaining({ status: 'stopped' }),
      },
      { type: 'message-metadata', messageMetadata: { status: 'interrupted' } },
    ]);
    expect((await getSession(db(), id))?.contextSummary).toBeNull();
    expect(turnCalls()).toEqual([]);
    expect(await listMessages(db(), id)).toEqual([]);
  });

  it('fails the turn in plain words when the model cannot summarise', async () => {
    const id = await longSession(30);
    recorded = recordingModel((prompt) => {
      if (isSummaryCall(prompt)) throw new Error('The model is away');
      return 'An answer.';
    });
    turnModel.current = recorded.model;
    await send(id, prompt('Go on'));
    const last = (await listMessages(db(), id)).at(-1);
    expect(last?.metadata).toMatchObject({
      status: 'failed',
      error: expect.stringMatching(/^Summarising the earlier messages failed: .*The model is away/),
    });
    expect((await getSession(db(), id))?.activeTurnId).toBeNull();
  });

  it('uses the stored summary in the next turns without summarising again', async () => {
    const id = await longSession(30);
    await send(id, prompt('First'));
    const summarised = summaryCalls().length;
    await send(id, prompt('Second'));
    expect(summaryCalls()).toHaveLength(summarised);
    const sent = JSON.stringify(turnCalls()[1]?.prompt);
    expect(sent).toContain(SUMMARY);
    expect(sent).toContain('First');
    // What the summary covers, the model is not sent again.
    expect(sent).not.toContain('Question 0:');
    const stored = await listMessages(db(), id);
    expect(stored.at(-1)?.parts.map(({ type }) => type)).toEqual(['step-start', 'text']);
  });

  it('forgets the summary when an edit drops messages it covered', async () => {
    const id = await longSession(30);
    await send(id, prompt('First'));
    const [first] = await listMessages(db(), id);
    await send(id, {
      trigger: 'edit',
      message: { id: first?.id, role: 'user', parts: [{ type: 'text', text: 'Start over' }] },
    });
    expect((await getSession(db(), id))?.contextSummary).toBeNull();
    const sent = JSON.stringify(turnCalls().at(-1)?.prompt);
    expect(sent).not.toContain(SUMMARY);
    expect(sent).toContain('Start over');
  });

  it('sends a short history as it is', async () => {
    const id = await longSession(2);
    await send(id, prompt('Hello'));
    expect(summaryCalls()).toEqual([]);
    expect(JSON.stringify(turnCalls()[0]?.prompt)).toContain('Question 0:');
    expect((await getSession(db(), id))?.contextSummary).toBeNull();
  });
});
