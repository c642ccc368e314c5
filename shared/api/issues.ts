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

/** How far an object form is from what was sent: fields it lacks or does not know. */
const misfit = (issues: readonly core.$ZodIssue[]) =>
  issues.filter((i) => i.code === 'unrecognized_keys' || (i.code === 'invalid_type' && i.path.length <= 1))
    .length;

/**
 * A union of object forms (a rule's trigger: `{event_type}` or `{schedule}`) answers the errors
 * of the one form the value is closest to, with their paths, rather than one error on the union.
 */
const closestForm = (issue: core.$ZodIssue): core.$ZodIssue[] | null => {
  if (issue.code !== 'invalid_union' || !('errors' in issue) || !Array.isArray(issue.errors)) return null;
  const forms = issue.errors as core.$ZodIssue[][];
  const scores = forms.map(misfit);
  const best = Math.min(...scores);
  if (scores.filter((s) => s === best).length !== 1) return null;
  return forms[scores.indexOf(best)]!.map((i) => ({ ...i, path: [...issue.path, ...i.path] }));
};

const fieldErrors = (error: { issues: readonly core.$ZodIssue[] }): FieldError[] =>
  error.issues.flatMap((issue): FieldError[] => {
    const closest = closestForm(issue);
    if (closest) return fieldErrors({ issues: closest });
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
