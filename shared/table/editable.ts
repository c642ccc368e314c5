import type { Attributes, FieldOf, RecordDeclaration } from './entity';

/**
 * What a PATCH of an entity's record may give, declared on the entity beside its record: the
 * PATCH body's schema (shared/api/schemas/patch.ts) and the use case that applies it take it, so
 * a field becomes editable here and nowhere else by hand.
 */
export interface Editable<
  F extends string = string,
  W extends string = string,
  R extends string = string,
  V extends string = string,
> {
  /** Every field the body may give, in the order of its schema: the record's fields and the write-only inputs. */
  readonly body: readonly (F | W)[];
  /** The record's fields a PATCH may change (the write-only inputs left out): what the use case compares and copies. */
  readonly fields: readonly F[];
  /** Inputs the record never returns (a connection's secret, kept in private storage). */
  readonly writeOnly?: readonly W[];
  /** The fields every PATCH must give; the others are optional. */
  readonly required?: readonly R[];
  /** The record's version attribute a PATCH must name, the one it was made against (409 when stale). */
  readonly version?: V;
}

/**
 * `body` lists the record's own fields a PATCH may change (only they compile) and, in their
 * place, any `writeOnly` inputs; `required` names the fields every PATCH must give, and
 * `version` the attribute a PATCH names the version it was made against with.
 */
export function editable<
  const A extends Attributes,
  const B extends readonly (FieldOf<A> | W)[],
  const W extends string = never,
  const R extends B[number] = never,
  const V extends FieldOf<A> = never,
>(
  _record: RecordDeclaration<A>,
  body: B,
  options: { writeOnly?: readonly W[]; required?: readonly R[]; version?: V } = {},
): Editable<Exclude<B[number], W>, W, R, V> {
  return {
    ...options,
    // Each of B is a field or a write-only input: TypeScript does not see Exclude<B, W> | W as B.
    body: body as readonly (Exclude<B[number], W> | W)[],
    fields: body.filter((field): field is Exclude<B[number], W> => !options.writeOnly?.includes(field as W)),
  };
}
