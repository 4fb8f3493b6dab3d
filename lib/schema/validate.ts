import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';

// Strict mode turns schema mistakes (unknown keywords, `required` naming an undefined property)
// into compile errors, so a malformed tool is rejected when it is defined, not when called.
// allErrors lets one message name every failing path at once. useDefaults fills in a property's
// `default`, so a tool sees what its schema-derived argument type promises.
const ajv = new Ajv({ strict: true, allErrors: true, useDefaults: true });
addFormats(ajv);

const compiled = new WeakMap<object, ValidateFunction>();

/** Compiles `schema` once; later calls with the same object reuse the validator. Throws when it does not compile. */
export function compileSchema(schema: object): ValidateFunction {
  let validate = compiled.get(schema);
  if (!validate) {
    validate = ajv.compile(schema);
    compiled.set(schema, validate);
  }
  return validate;
}

export type Validation = { valid: true } | { valid: false; message: string };

/**
 * Validates `value` against `schema`; an invalid value gets one message naming every failing
 * path. `subject` names the value itself when it is the root that fails (a request body, a
 * widget's data), `arguments` by default.
 */
export function validate(schema: object, value: unknown, subject = 'arguments'): Validation {
  const check = compileSchema(schema);
  if (check(value)) return { valid: true };
  return { valid: false, message: formatErrors(check.errors as ErrorObject[], subject) };
}

/** `count: must be integer; unit: must be one of: c, f` */
export function formatErrors(errors: readonly ErrorObject[], subject = 'arguments'): string {
  const lines = errors.map((error) => `${pathOf(error, subject)}: ${messageOf(error)}`);
  return [...new Set(lines)].join('; ');
}

function pathOf(error: ErrorObject, subject: string): string {
  const segments = error.instancePath
    .split('/')
    .slice(1)
    .map((segment) => segment.replaceAll('~1', '/').replaceAll('~0', '~'));
  // A missing or unexpected property is reported on its parent object; name the property itself.
  if (error.keyword === 'required') segments.push(String(error.params.missingProperty));
  if (error.keyword === 'additionalProperties')
    segments.push(String(error.params.additionalProperty));
  if (segments.length === 0) return subject;
  return segments.reduce(
    (path, segment) =>
      /^\d+$/.test(segment) ? `${path}[${segment}]` : path ? `${path}.${segment}` : segment,
    '',
  );
}

function messageOf(error: ErrorObject): string {
  switch (error.keyword) {
    case 'required':
      return 'is required';
    case 'additionalProperties':
      return 'is not allowed';
    case 'enum':
      return `must be one of: ${(error.params.allowedValues as unknown[]).map(String).join(', ')}`;
    default:
      return String(error.message);
  }
}
