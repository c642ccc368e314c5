import * as z from 'zod/mini';
import type * as core from 'zod/v4/core';
import { type FieldError, ValidationError } from '#shared/kernel/errors';

const UNITS: Record<string, string> = { string: 'characters', array: 'items', set: 'items' };

/**
 * A readable message from the issue's own fields, the error map of every parse. zod/mini ships
 * without a locale (the English messages would add to every bundle); messages given in a schema
 * are kept as they are.
 */
function describeIssue(issue: core.$ZodRawIssue): string {
  if (issue.message && issue.message !== 'Invalid input') return issue.message;
  switch (issue.code) {
    case 'too_small':
      return `must be at least ${issue.minimum}${UNITS[issue.origin] ? ` ${UNITS[issue.origin]}` : ''}`;
    case 'too_big':
      return `must be at most ${issue.maximum}${UNITS[issue.origin] ? ` ${UNITS[issue.origin]}` : ''}`;
    case 'invalid_type':
      return `expected ${issue.expected}`;
    case 'invalid_value':
      return `expected one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
    case 'invalid_format':
      return `must be a valid ${issue.format}`;
    case 'invalid_union': {
      const options = (issue as { options?: unknown[] }).options;
      return options
        ? `expected one of ${options.map((v) => JSON.stringify(v)).join(', ')}`
        : 'matches none of the allowed forms';
    }
    default:
      return 'Invalid value';
  }
}

const fieldErrors = (error: core.$ZodError): FieldError[] =>
  error.issues.flatMap((issue) => {
    const base = issue.path.map(String).filter(Boolean).join('.');
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({
        path: base ? `${base}.${key}` : key,
        code: 'unrecognized_key',
        message: 'Unknown field',
      }));
    }
    // A rule that spans fields (a refinement) names its failure in `params.code`.
    const code =
      issue.code === 'custom' && typeof issue.params?.code === 'string' ? issue.params.code : issue.code;
    return [{ path: base, code, message: issue.message }];
  });

/**
 * The value as the schema's output, or a 422 listing every issue as a field error. `at` prefixes
 * each path, for a value checked apart from its body (a connection's `config` against its adapter).
 */
export const parse = <S extends core.$ZodType>(schema: S, value: unknown, at?: string): core.output<S> => {
  // Our words given per parse: they outrank zod's global locale, which classic zod sets as soon
  // as one of its schemas exists in the process (the demo's do, in the local runtime).
  const result = z.safeParse(schema, value, { error: describeIssue });
  if (!result.success) {
    const errors = fieldErrors(result.error);
    throw new ValidationError(
      at ? errors.map((e) => ({ ...e, path: e.path ? `${at}.${e.path}` : at })) : errors,
    );
  }
  return result.data;
};
