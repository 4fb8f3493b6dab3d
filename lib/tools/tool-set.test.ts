import { describe, expect, it } from 'vitest';
import type { WidgetDefinition } from '../widgets/actions';
import { ok } from './result';
import { defineTool, ToolDefinitionError } from './tool';
import { createToolSet } from './tool-set';

const parameters = { type: 'object', properties: {} } as const;
const make = (name: string, widget?: WidgetDefinition) =>
  defineTool({
    name,
    description: `the ${name} tool`,
    parameters,
    execute: () => ok(name),
    widget,
  });

describe('createToolSet', () => {
  it('looks tools up by name', () => {
    const a = make('a');
    const set = createToolSet([a, make('b')]);
    expect(set.get('a')).toBe(a);
    expect(set.get('missing')).toBeUndefined();
    expect(set.tools.map((tool) => tool.name)).toEqual(['a', 'b']);
  });

  it('refuses two tools with one name at start-up', () => {
    expect(() => createToolSet([make('a'), make('a')])).toThrow(
      new ToolDefinitionError('duplicate tool name: a'),
    );
  });

  it('lists the model tools: name, description and parameters only', () => {
    expect(createToolSet([make('a', { id: 'w', title: 'W', data: {} })]).modelTools).toEqual([
      { name: 'a', description: 'the a tool', parameters },
    ]);
  });

  it('derives the widgets from the tools, each once, even when two tools share one', () => {
    const counter = { id: 'counter', title: 'Counter', data: {} };
    const board = { id: 'board', title: 'Board', data: {} };
    const set = createToolSet([
      make('show', counter),
      make('plain'),
      make('bump', counter),
      make('tasks', board),
    ]);
    expect(set.widgets).toEqual([counter, board]);
    expect(set.widgets[0]).toBe(counter);
  });

  it('refuses two different widgets that claim one id', () => {
    expect(() =>
      createToolSet([
        make('a', { id: 'w', title: 'W', data: {} }),
        make('b', { id: 'w', title: 'W', data: {} }),
      ]),
    ).toThrow('two different widgets share the id: w');
  });

  it('is not changed by later changes to the array it was built from', () => {
    const tools = [make('a')];
    const set = createToolSet(tools);
    tools.push(make('b'));
    expect(set.tools).toHaveLength(1);
  });
});
