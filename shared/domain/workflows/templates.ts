import { PLACEHOLDER } from '#shared/kernel/placeholders';
import { resolvePath } from './conditions';

/**
 * The template engine of workflow rule actions (docs/api.md section 9.1): pure, no I/O. Each
 * `{{field}}` is replaced by the entity's value at that dotted path: text as it is, numbers and
 * booleans as JSON writes them, objects and arrays as JSON text. An absent field (missing or
 * null) is replaced by nothing and reported in `missing`, so a rule's test shows what its
 * actions would lack.
 */

export interface Filled {
  text: string;
  /** The fields of the placeholders that had no value, once each, in order. */
  missing: string[];
}

export function fillTemplate(template: string, entity: unknown): Filled {
  const missing: string[] = [];
  const text = template.replace(PLACEHOLDER, (_, inner: string) => {
    const field = inner.trim();
    const value = resolvePath(entity, field);
    if (value === undefined || value === null) {
      if (!missing.includes(field)) missing.push(field);
      return '';
    }
    return typeof value === 'string' ? value : JSON.stringify(value);
  });
  return { text, missing };
}
