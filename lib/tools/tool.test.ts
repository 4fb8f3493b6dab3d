import { describe, expect, expectTypeOf, it } from 'vitest';
import { ok } from './result';
import { defineTool, type Tool, ToolDefinitionError, toModelTool, validateArgs } from './tool';

const parameters = {
  type: 'object',
  properties: { path: { type: 'string' }, lines: { type: 'integer' } },
  required: ['path'],
  additionalProperties: false,
} as const;

const readFile = defineTool({
  name: 'read_file',
  description: 'Read a file',
  parameters,
  execute: (_agentId, _id, { path }) => ok(`contents of ${path}`),
});

describe('defineTool', () => {
  it('returns the tool as defined', () => {
    expect(readFile.name).toBe('read_file');
    expect(readFile.description).toBe('Read a file');
    expect(readFile.parameters).toBe(parameters);
    expect(readFile.widget).toBeUndefined();
  });

  it('types execute arguments from the parameters schema', () => {
    expectTypeOf(readFile.execute).parameter(2).toEqualTypeOf<{ path: string; lines?: number }>();
  });

  it.each([
    ['an empty name', ''],
    ['a name with a space', 'read file'],
    ['a name with a dot', 'fs.read'],
    ['a name longer than 64 characters', 'x'.repeat(65)],
  ])('rejects %s', (_case, name) => {
    expect(() => {
      defineTool({ ...readFile, name });
    }).toThrow(
      new ToolDefinitionError(
        `tool ${JSON.stringify(name)}: name must match ^[a-zA-Z0-9_-]{1,64}$`,
      ),
    );
  });

  it('accepts a name of exactly 64 allowed characters', () => {
    const name = `${'a-Z_9'.repeat(12)}abcd`;
    expect(defineTool({ ...readFile, name }).name).toBe(name);
  });

  it.each([
    ['empty', ''],
    ['blank', '   '],
  ])('rejects a description that is %s', (_case, description) => {
    expect(() => {
      defineTool({ ...readFile, description });
    }).toThrow('tool "read_file": description must be a non-empty string');
  });

  it('rejects parameters that are not an object schema', () => {
    const bad = { type: 'string' } as unknown as typeof parameters;
    expect(() => {
      defineTool({ ...readFile, parameters: bad });
    }).toThrow('tool "read_file": parameters must be a JSON Schema with type "object"');
    expect(() => {
      defineTool({ ...readFile, parameters: null as unknown as typeof parameters });
    }).toThrow(/parameters must be a JSON Schema/);
  });

  it('rejects parameters that do not compile', () => {
    const bad = {
      type: 'object',
      properties: { n: { type: 'nope' } },
    } as unknown as typeof parameters;
    expect(() => {
      defineTool({ ...readFile, parameters: bad });
    }).toThrow(
      /^tool "read_file": parameters do not compile: schema is invalid: data\/properties\/n\/type/,
    );
  });

  it('rejects a missing execute function', () => {
    const bad = { ...readFile, execute: undefined } as unknown as Tool<{ path: string }>;
    expect(() => {
      defineTool({ ...bad, parameters });
    }).toThrow('tool "read_file": execute must be a function');
  });

  it.each([0, -1, 1.5, Number.POSITIVE_INFINITY])('rejects timeoutMs %s', (timeoutMs) => {
    expect(() => {
      defineTool({ ...readFile, timeoutMs });
    }).toThrow('timeoutMs must be a positive integer');
  });

  it('rejects a widget without an id', () => {
    expect(() => {
      defineTool({ ...readFile, widget: { id: '', title: 'Viewer', data: { type: 'object' } } });
    }).toThrow('widget must have a non-empty id');
  });

  it('rejects a widget whose data schema does not compile', () => {
    expect(() => {
      defineTool({
        ...readFile,
        widget: { id: 'viewer', title: 'Viewer', data: { type: 'nonsense' } as never },
      });
    }).toThrow("widget viewer's data schema does not compile");
  });

  it('keeps a widget and a timeout it is given', () => {
    const tool = defineTool({
      ...readFile,
      widget: { id: 'viewer', title: 'Viewer', data: { type: 'object' } },
      timeoutMs: 5,
    });
    expect(tool.widget).toEqual({ id: 'viewer', title: 'Viewer', data: { type: 'object' } });
    expect(tool.timeoutMs).toBe(5);
  });
});

describe('toModelTool', () => {
  it('keeps only name, description and parameters (drops execute and widget)', () => {
    const tool = defineTool({
      ...readFile,
      widget: { id: 'viewer', title: 'Viewer', data: { type: 'object' } },
      timeoutMs: 5,
    });
    expect(toModelTool(tool)).toEqual({
      name: 'read_file',
      description: 'Read a file',
      parameters,
    });
    expect(Object.keys(toModelTool(tool)).sort()).toEqual(['description', 'name', 'parameters']);
  });
});

describe('validateArgs', () => {
  it('is ok for valid arguments', () => {
    expect(validateArgs(readFile, { path: '/etc/hosts' })).toEqual({ valid: true });
  });

  it('gives a message naming each failing path, suitable to return from a tool', () => {
    expect(validateArgs(readFile, { path: 1, lines: 'ten' })).toEqual({
      valid: false,
      message: 'path: must be string; lines: must be integer',
    });
  });
});
