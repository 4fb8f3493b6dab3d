export type { JSONSchema, ObjectSchema, ValueOf } from './types';
export type { Validation } from './validate';
export { compileSchema, formatErrors, validate } from './validate';
