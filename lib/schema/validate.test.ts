import { describe, expect, it, vi } from 'vitest';
import { compileSchema, validate } from './validate';

const weather = {
  type: 'object',
  properties: {
    city: { type: 'string', minLength: 1 },
    count: { type: 'integer', minimum: 1 },
    unit: { enum: ['c', 'f'] },
    email: { type: 'string', format: 'email' },
    tags: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' } } } },
    'a/b': { type: 'number' },
  },
  required: ['city'],
  additionalProperties: false,
} as const;

describe('validate', () => {
  it('accepts arguments that match', () => {
    expect(validate(weather, { city: 'Lisbon', count: 2, unit: 'c' })).toEqual({ valid: true });
  });

  it('names every failing path in one message', () => {
    expect(validate(weather, { city: 'Lisbon', count: 1.5, unit: 'k' })).toEqual({
      valid: false,
      message: 'count: must be integer; unit: must be one of: c, f',
    });
  });

  it('names a missing required property and an unexpected one', () => {
    expect(validate(weather, { town: 'Lisbon' })).toEqual({
      valid: false,
      message: 'city: is required; town: is not allowed',
    });
  });

  it('paths into arrays and nested objects, and unescapes JSON pointer segments', () => {
    const result = validate(weather, {
      city: 'x',
      tags: [{ name: 'ok' }, { name: 3 }],
      'a/b': 'no',
    });
    expect(result).toEqual({
      valid: false,
      message: 'tags[1].name: must be string; a/b: must be number',
    });
  });

  it('checks formats (ajv-formats)', () => {
    expect(validate(weather, { city: 'x', email: 'not an email' })).toEqual({
      valid: false,
      message: 'email: must match format "email"',
    });
  });

  it('fills in defaults the schema declares', () => {
    const schema = { type: 'object', properties: { start: { type: 'integer', default: 0 } } };
    const args: Record<string, unknown> = {};
    expect(validate(schema, args)).toEqual({ valid: true });
    expect(args).toEqual({ start: 0 });
  });

  it('reports arguments that are not an object at all', () => {
    expect(validate(weather, 'Lisbon')).toEqual({
      valid: false,
      message: 'arguments: must be object',
    });
  });

  it('names the root by its subject when the caller says what it is', () => {
    expect(validate(weather, 'Lisbon', 'body')).toEqual({
      valid: false,
      message: 'body: must be object',
    });
  });

  it('compiles a schema once and reuses it', async () => {
    const ajvModule = await import('ajv');
    const compile = vi.spyOn(ajvModule.default.prototype, 'compile');
    const schema = { type: 'object', properties: { n: { type: 'number' } } };
    for (let i = 0; i < 5; i++) validate(schema, { n: i });
    expect(compile).toHaveBeenCalledTimes(1);
    compile.mockRestore();
  });

  it('rejects a schema with a mistake instead of ignoring it (strict mode)', () => {
    expect(() =>
      compileSchema({ type: 'object', properties: { n: { type: 'number', minimun: 1 } } }),
    ).toThrow(/unknown keyword: "minimun"/);
  });
});
