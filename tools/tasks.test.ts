import { describe, expect, it } from 'vitest';
import { recognise } from '@/lib/agent/demo-intents';
import { newId } from '@/lib/ids';
import { runTool, validateArgs } from '@/lib/tools';
import { type MemoryServices, memoryServices } from '@/tests/helpers/tool-services';
import { describeBoard, EMPTY_BOARD } from '@/widgets/tasks/board';
import { demoIntents, toolSet } from '.';

describe('the task board tools', () => {
  const run = (services: MemoryServices, toolName: string, args: unknown) =>
    runTool(
      toolSet,
      { toolCallId: `c_${newId()}`, toolName, args },
      { agentId: 'a', sessionId: 's', services },
    );

  it('adds, lists, moves, renames and deletes tasks; each answer opens the board', async () => {
    const services = memoryServices();
    const added = await run(services, 'add_task', { title: 'Buy milk' });
    expect(added).toMatchObject({
      isError: false,
      modelText: 'Added task t1 "Buy milk" in todo. The board has 1 task.',
      ui: { kind: 'widget', label: 'Open task board', widget: 'tasks' },
    });
    expect(
      (await run(services, 'add_task', { title: 'Call Ada', column: 'doing' })).modelText,
    ).toBe('Added task t2 "Call Ada" in doing. The board has 2 tasks.');
    expect((await run(services, 'update_task', { id: 't1', column: 'done' })).modelText).toBe(
      't1 is now "Buy milk" in done.',
    );
    expect((await run(services, 'update_task', { id: 't2', title: 'Call Bob' })).modelText).toBe(
      't2 is now "Call Bob" in doing.',
    );
    expect((await run(services, 'list_tasks', {})).modelText).toBe(
      'todo (0):\ndoing (1):\n- t2: Call Bob\ndone (1):\n- t1: Buy milk',
    );
    expect((await run(services, 'update_task', { id: 't2', delete: true })).modelText).toBe(
      'Deleted t2 "Call Bob".',
    );
    const listed = await run(services, 'list_tasks', {});
    expect(listed).toMatchObject({
      ui: { data: { tasks: [{ id: 't1', title: 'Buy milk', column: 'done' }] } },
    });
  });

  it('says what is wrong instead of guessing', async () => {
    const services = memoryServices();
    expect(await run(services, 'update_task', { id: 't9', column: 'done' })).toEqual({
      isError: true,
      modelText: 'cannot change the task: no task t9 on the board',
    });
    expect((await run(services, 'update_task', { id: 't1' })).modelText).toBe(
      'nothing to change: give a title, a column, or delete: true',
    );
    expect((await run(services, 'add_task', { title: '   ' })).isError).toBe(true);
    expect((await run(services, 'list_tasks', {})).modelText).toBe('The task board is empty.');
  });

  it("keeps the board in the tasks widget's state, and reads it back from there", async () => {
    const services = memoryServices();
    await run(services, 'add_task', { title: 'Write tests' });
    expect(services.widgetData.get('tasks')).toEqual({
      tasks: [{ id: 't1', title: 'Write tests', column: 'todo' }],
    });
    services.widgetData.set('tasks', {
      tasks: [{ id: 't1', title: 'Write tests', column: 'doing' }],
    });
    expect((await run(services, 'list_tasks', {})).modelText).toContain(
      'doing (1):\n- t1: Write tests',
    );
    expect(describeBoard(EMPTY_BOARD)).toBe('The task board is empty.');
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
      expect(recognise(text, demoIntents, available), text).toEqual([{ tool, args }]);
      const definition = toolSet.get(tool);
      if (!definition) throw new Error(`${tool} is shipped`);
      expect(validateArgs(definition, args)).toEqual({ valid: true });
    }
  });
});
