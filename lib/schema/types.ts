import type { FromSchema, JSONSchema } from 'json-schema-to-ts';

export type { JSONSchema };

/** A JSON Schema whose root describes an object: tool arguments, widget action arguments. */
export type ObjectSchema = JSONSchema & { type: 'object' };

/**
 * The type of the values a schema describes. A schema only known as "some schema" (not a
 * literal) gives `unknown`, or a plain record for "some object schema": expanding FromSchema
 * over the whole JSON Schema type is too deep for tsc.
 */
export type ValueOf<Schema extends JSONSchema> = JSONSchema extends Schema
  ? unknown
  : ObjectSchema extends Schema
    ? Record<string, unknown>
    : FromSchema<Schema>;
