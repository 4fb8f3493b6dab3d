import { beforeAll, expect, it, vi } from 'vitest';
import * as actionsRoute from '@/app/api/sessions/[id]/widgets/[toolCallId]/actions/route';
import { appendMessages } from '@/lib/db/messages';
import { listNotes } from '@/lib/db/notes';
import { createSession } from '@/lib/db/sessions';
import { subscribe } from '@/lib/events/session-events';
import { newId } from '@/lib/ids';
import type { SessionEvent } from '@/lib/protocol';
import { toolServices } from '@/lib/sessions/tool-services';
import { runTool } from '@/lib/tools';
import { describeEachDatabase } from '@/tests/helpers/databases';
import { params, request, useDatabase } from '@/tests/helpers/routes';
import { toolSet } from '@/tools';

process.env.QUANTA_SECRET = 'test-secret';

// The services a turn builds, on a real database: the shipped tools store where the app reads.
describeEachDatabase('the tool services of a session', (database) => {
  const db = () => database().db;
  // The action route opens the app's database: this one.
  beforeAll(() => useDatabase(database()));
  const session = async (ownerId = newId()) => (await createSession(db(), { ownerId })).id;
  const run = (sessionId: string, toolName: string, args: unknown) =>
    runTool(
      toolSet,
      { toolCallId: `c_${newId()}`, toolName, args },
      { agentId: sessionId, sessionId, services: toolServices(db(), sessionId) },
    );

  it('keeps save_note’s notes on their session, in order, counting only its own', async () => {
    const id = await session();
    await run(await session(), 'save_note', { text: 'elsewhere' });
    await run(id, 'save_note', { text: 'one' });
    // Distinct milliseconds: PGlite's clock has no finer ones, so the order has one answer.
    await new Promise((resolve) => setTimeout(resolve, 2));
    const outcome = await run(id, 'save_note', { text: 'two' });
    expect(outcome.modelText).toBe('Saved the note: "two". The session has 2 notes.');
    expect((await listNotes(db(), id)).map((note) => note.text)).toEqual(['one', 'two']);
  });

  it('reports a session that does not exist as a plain error, logging the database’s', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      expect(await run(newId(), 'save_note', { text: 'orphan' })).toEqual({
        isError: true,
        modelText: 'could not save the note; try again later',
      });
      expect(logged).toHaveBeenCalledOnce();
      expect(String(logged.mock.calls[0]?.[1])).toMatch(/insert into/i);
    } finally {
      logged.mockRestore();
    }
  });

  it('keeps one task board per session, announced live', async () => {
    const owner = newId();
    const id = await session(owner);
    const events: SessionEvent[] = [];
    const stop = subscribe(id, (event) => events.push(event));
    await run(id, 'add_task', { title: 'Write tests' });
    expect(events).toEqual([
      {
        type: 'widget',
        toolCallId: 'session:tasks',
        data: { tasks: [{ id: 't1', title: 'Write tests', column: 'todo' }] },
        version: 1,
      },
    ]);
    stop();
    expect((await run(id, 'list_tasks', {})).modelText).toContain('- t1: Write tests');
    // Another session's board is its own.
    expect((await run(await session(owner), 'list_tasks', {})).modelText).toBe(
      'The task board is empty.',
    );
  });

  it('refuses a change that would make the board larger than the widget data limit', async () => {
    const id = await session();
    process.env.QUANTA_MAX_WIDGET_DATA_BYTES = '60';
    try {
      const refused = await run(id, 'add_task', { title: 'A task whose title is long' });
      expect(refused.isError).toBe(true);
      expect(refused.modelText).toContain(
        "The tasks widget's data would be larger than 60 bytes, so it was not changed.",
      );
    } finally {
      delete process.env.QUANTA_MAX_WIDGET_DATA_BYTES;
    }
    expect((await run(id, 'list_tasks', {})).modelText).toBe('The task board is empty.');
  });

  it('lets the model see what the human did in the widget', async () => {
    const owner = { ownerId: newId() };
    const id = await session(owner.ownerId);
    // The widget is acted on through a tool call that opened it: store one as a turn would.
    const opened = await run(id, 'add_task', { title: 'Draft' });
    await appendMessages(db(), id, [
      {
        role: 'assistant',
        parts: [
          {
            type: 'tool-add_task',
            toolCallId: 'call_board',
            state: 'output-available',
            input: { title: 'Draft' },
            output: { ...opened, durationMs: 1 },
          },
        ],
      },
    ]);
    const response = await actionsRoute.POST(
      request('POST', `/api/sessions/${id}/widgets/call_board/actions`, owner, {
        action: 'move',
        args: { id: 't1', column: 'doing' },
        version: 1,
      }),
      params({ id, toolCallId: 'call_board' }),
    );
    expect(response.status).toBe(200);
    expect((await run(id, 'list_tasks', {})).modelText).toContain('doing (1):\n- t1: Draft');
  });
});
