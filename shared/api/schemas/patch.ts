import * as z from 'zod/mini';
import type { Editable } from '#shared/table/editable';

type Shape<D extends Editable, V extends { readonly [K in D['body'][number]]: z.ZodMiniType }> = {
  [K in D['body'][number]]: K extends NonNullable<D['required']>[number] ? V[K] : z.ZodMiniOptional<V[K]>;
};
type VersionShape<D extends Editable> = [NonNullable<D['version']>] extends [never]
  ? object
  : { [K in NonNullable<D['version']>]: z.ZodMiniInt };

/**
 * A PATCH body from what its entity declares editable (`editable` in shared/table/entity.ts) and
 * a validator for each field: the version it was made against first when the entity declares
 * one, then each field in the declared order, optional unless declared required; anything else
 * is an unknown field (422). The validators are typed by the declaration, so a field declared
 * editable without one, or one given that is not declared, does not compile.
 */
export function patchSchema<
  const D extends Editable,
  V extends { readonly [K in D['body'][number]]: z.ZodMiniType },
>(declaration: D, validators: V) {
  const shape: Record<string, z.ZodMiniType> = {};
  if (declaration.version) shape[declaration.version] = z.int().check(z.minimum(1));
  for (const field of declaration.body as D['body'][number][])
    shape[field] = declaration.required?.includes(field) ? validators[field] : z.optional(validators[field]);
  return z.strictObject(shape as VersionShape<D> & Shape<D, V>);
}
