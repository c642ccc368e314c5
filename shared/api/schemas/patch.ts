import * as z from 'zod/mini';

/**
 * A PATCH body from the fields its entity declares editable (`editable` in shared/table/entity.ts)
 * and a validator for each: every field optional, anything else an unknown field (422). The
 * validators are typed by the declared list, so a field declared editable without one, or one
 * given that is not declared, does not compile.
 */
export function patchSchema<
  const F extends readonly string[],
  V extends { readonly [K in F[number]]: z.ZodMiniType },
>(fields: F, validators: V) {
  const shape = Object.fromEntries(
    fields.map((field) => [field, z.optional(validators[field as F[number]])]),
  );
  return z.strictObject(shape as { [K in F[number]]: z.ZodMiniOptional<V[K]> });
}
