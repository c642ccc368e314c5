import type * as core from 'zod/v4/core';
import type { Operation } from '../operations/operation';
import { IDEMPOTENCY_KEY, IDEMPOTENCY_KEY_MAX_LENGTH } from '../schemas/common';
import type { Components, Json } from './components';

/**
 * An operation's parameters: its path and query schemas' input side (every `{name}` of the path
 * is a required string even without a schema), and the `Idempotency-Key` header of an idempotent
 * operation.
 */
export function parameters(c: Components, op: Operation): Json[] {
  const out: Json[] = [];
  const add = (schema: core.$ZodType | undefined, where: 'path' | 'query') => {
    if (!schema) return;
    const js = c.convert(schema, 'input') as { properties?: Record<string, Json>; required?: string[] };
    for (const [name, prop] of Object.entries(js.properties ?? {})) {
      const { description, ...rest } = prop;
      out.push({
        name,
        in: where,
        required: where === 'path' || (js.required ?? []).includes(name),
        ...(description ? { description } : {}),
        schema: rest,
      });
    }
  };
  add(op.params, 'path');
  for (const [, name] of op.path.matchAll(/\{(\w+)\}/g)) {
    if (!out.some((p) => p.in === 'path' && p.name === name)) {
      out.push({ name, in: 'path', required: true, schema: { type: 'string' } });
    }
  }
  add(op.query, 'query');
  if (op.idempotent) {
    out.push({
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      description:
        'The same key and body return the first answer; the same key with another body is 409 `conflict`.',
      schema: {
        type: 'string',
        minLength: 1,
        maxLength: IDEMPOTENCY_KEY_MAX_LENGTH,
        pattern: IDEMPOTENCY_KEY.source,
      },
    });
  }
  return out;
}
