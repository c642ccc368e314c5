import { type FieldError, MalformedJsonError, ValidationError } from '#shared/kernel/errors';

/** docs/api.md section 11: deeper JSON is refused before anything walks it recursively. */
export const MAX_JSON_DEPTH = 64;
/** Enough to show what is wrong; a body full of bad numbers does not get one entry each. */
const MAX_REPORTED = 20;

/**
 * A request body (docs/api.md section 1: the guard has checked its size and media type) as
 * JSON. Text that does not parse is 400 `malformed_json`. JSON that parses but that no schema
 * may take is 422 `validation_failed` with the path of each offence:
 *
 * - a `__proto__` key: JSON.parse keeps it as an own property, but a schema parser that copies
 *   a value by assignment would set the copy's prototype instead;
 * - a number beyond a double (`1e309`): JSON.parse reads it as Infinity, which JSON.stringify
 *   later writes as null;
 * - nesting deeper than MAX_JSON_DEPTH: JSON.stringify recurses, and a few thousand levels
 *   overflow its stack when a free-form object is stored.
 */
export function parseJsonBody(raw: string | undefined, isBase64Encoded: boolean): unknown {
  const text = raw !== undefined && isBase64Encoded ? Buffer.from(raw, 'base64').toString('utf8') : raw;
  let body: unknown;
  try {
    body = JSON.parse(text ?? '');
  } catch (err) {
    throw new MalformedJsonError(err);
  }
  const errors = offences(body);
  if (errors.length > 0) throw new ValidationError(errors);
  return body;
}

/** Walks the parsed value with a stack of its own, so that depth cannot overflow this walk either. */
function offences(body: unknown): FieldError[] {
  const errors: FieldError[] = [];
  const pending: { value: unknown; path: string[] }[] = [{ value: body, path: [] }];
  while (pending.length > 0 && errors.length < MAX_REPORTED) {
    const { value, path } = pending.pop()!;
    const at = path.join('.');
    if (typeof value === 'number' && !Number.isFinite(value)) {
      errors.push({ path: at, code: 'invalid_value', message: 'must be a finite number' });
    } else if (typeof value === 'object' && value !== null) {
      if (path.length >= MAX_JSON_DEPTH) {
        errors.push({
          path: at,
          code: 'too_big',
          message: `must be nested at most ${MAX_JSON_DEPTH} levels`,
        });
        continue;
      }
      for (const [key, child] of Object.entries(value)) {
        if (key === '__proto__') {
          errors.push({
            path: [...path, key].join('.'),
            code: 'invalid_key',
            message: 'not allowed as a key',
          });
        } else {
          pending.push({ value: child, path: [...path, key] });
        }
      }
    }
  }
  return errors;
}
