import { beforeAll, describe, expect, it } from 'vitest';
import * as actionsRoute from '@/app/api/sessions/[id]/widgets/[toolCallId]/actions/route';
import { recognise } from '@/lib/agent/demo-intents';
import { createSession } from '@/lib/db/sessions';
import { subscribe } from '@/lib/events/session-events';
import { newId } from '@/lib/ids';
import type { SessionEvent } from '@/lib/protocol';
import { runTool, validateArgs } from '@/lib/tools';
import { describeEachDatabase } from '@/tests/helpers/databases';
import { params, request, useDatabase } from '@/tests/helpers/routes';
import { describeBoard, EMPTY_BOARD } from '@/widgets/tasks/board';
import { toolSet } from '.';

process.env.QUANTA_SECRET = 'test-secret';

describeEachDatabase('the task board tools', (database) => {
  beforeAll(() => useDatabase(database()));
  const run = (sessionId: string, toolName: string, args: unknown) =>
    runTool(toolSet, { toolCallId: `c_${newId()}`, toolName, args }, { agentId: 'a', sessionId });
  const session = async (ownerId = newId()) => (await createSession(database().db, { ownerId })).id;

  it('adds, lists, moves, renames and deletes tasks; each answer opens the board', async () => {
    const id = await session();
    const added = await run(id, 'add_task', { title: 'Buy milk' });
    expect(added).toMatchObject({
      isError: false,
      modelText: 'Added task t1 "Buy milk" in todo. The board has 1 task.',
      ui: { kind: 'widget', label: 'Open task board', widget: 'tasks' },
    });
    expect((await run(id, 'add_task', { title: 'Call Ada', column: 'doing' })).modelText).toBe(
      'Added task t2 "Call Ada" in doing. The board has 2 tasks.',
    );
    expect((await run(id, 'update_task', { id: 't1', column: 'done' })).modelText).toBe(
      't1 is now "Buy milk" in done.',
    );
    expect((await run(id, 'update_task', { id: 't2', title: 'Call Bob' })).modelText).toBe(
      't2 is now "Call Bob" in doing.',
    );
    expect((await run(id, 'list_tasks', {})).modelText).toBe(
      'todo (0):\ndoing (1):\n- t2: Call Bob\ndone (1):\n- t1: Buy milk',
    );
    expect((await run(id, 'update_task', { id: 't2', delete: true })).modelText).toBe(
      'Deleted t2 "Call Bob".',
    );
    const listed = await run(id, 'list_tasks', {});
    expect(listed).toMatchObject({
      ui: { data: { tasks: [{ id: 't1', title: 'Buy milk', column: 'done' }] } },
    });
  });

  it('says what is wrong instead of guessing', async () => {
    const id = await session();
    expect(await run(id, 'update_task', { id: 't9', column: 'done' })).toEqual({
      isError: true,
      modelText: 'cannot change the task: no task t9 on the board',
    });
    expect((await run(id, 'update_task', { id: 't1' })).modelText).toBe(
      'nothing to change: give a title, a column, or delete: true',
    );
    expect((await run(id, 'add_task', { title: '   ' })).isError).toBe(true);
    expect((await run(id, 'list_tasks', {})).modelText).toBe('The task board is empty.');
  });

  it('keeps one board per session, shared by the model and the human, announced live', async () => {
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
    // Another session's board is its own.
    expect((await run(await session(owner), 'list_tasks', {})).modelText).toBe(
      'The task board is empty.',
    );
    expect(describeBoard(EMPTY_BOARD)).toBe('The task board is empty.');
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

  it('the model sees what the human did in the widget', async () => {
    const owner = { ownerId: newId() };
    const id = await session(owner.ownerId);
    // The widget is acted on through a tool call that opened it: store one as a turn would.
    const { saveMessage } = await import('@/lib/db/sessions');
    const opened = await run(id, 'add_task', { title: 'Draft' });
    await saveMessage(database().db, id, {
      id: newId(),
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
    });
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

describe('the demo model and the task board', () => {
  it('asks for each task tool with valid arguments', () => {
    const available = new Set(toolSet.tools.map((tool) => tool.name));
    const cases = [
      ['add a task: water the plants', 'add_task', { title: 'water the plants' }],
      ['list my tasks', 'list_tasks', {}],
      ['move t1 to done', 'update_task', { id: 't1', column: 'done' }],
      ['delete task t2', 'update_task', { id: 't2', delete: true }],
    ] as const;
    for (const [text, tool, args] of cases) {
      expect(recognise(text, available), text).toEqual([{ tool, args }]);
      const definition = toolSet.get(tool);
      if (!definition) throw new Error(`${tool} is shipped`);
      expect(validateArgs(definition, args)).toEqual({ valid: true });
    }
  });
});
