import * as z from 'zod/mini';
import type { Attribute, Attributes, AttributeType, RecordDeclaration, ValueOf } from '#shared/table/entity';
import { DateTime } from './datetime';

/**
 * The read schema of a record, derived from its declaration (shared/table/entities/): the
 * declared attributes the API returns (hidden ones left out, derived ones in), in declaration
 * order, each from its declared type. A declaration names no zod schema (no Lambda bundles these
 * read schemas, while every store bundles its declaration), so `enum` and `json` attributes, and
 * any other whose values the API narrows (a bound, a format), take their base schema from
 * `refine`; `|null` and `?` are the declaration's still. Adding a field to a record is one line
 * of its declaration.
 */

type TypeOf<A extends Attribute> = A extends { type: infer T extends AttributeType } ? T : A & AttributeType;
type BaseOf<T extends AttributeType> = T extends `${infer B}|null?`
  ? B
  : T extends `${infer B}?`
    ? B
    : T extends `${infer B}|null`
      ? B
      : T;

/** The read shape's attributes: every declared one but the hidden. */
type ReadKey<A extends Attributes> = { [K in keyof A]: A[K] extends { hidden: true } ? never : K }[keyof A] &
  string;

const BASE = {
  string: () => z.string(),
  datetime: () => DateTime,
  date: () => z.iso.date(),
  int: () => z.int(),
  number: () => z.number(),
  boolean: () => z.boolean(),
  'string[]': () => z.array(z.string()),
};
type Bases = { [B in keyof typeof BASE]: ReturnType<(typeof BASE)[B]> };

/** A base schema whose values are of the declared type (an enum's values are strings). */
type SchemaFor<T extends AttributeType> = z.ZodMiniType<NonNullable<ValueOf<BaseOf<T>>>>;
type Refinements<A extends Attributes> = {
  [K in ReadKey<A> as BaseOf<TypeOf<A[K]>> extends 'enum' | 'json' ? K : never]: SchemaFor<TypeOf<A[K]>>;
} & {
  [K in ReadKey<A> as BaseOf<TypeOf<A[K]>> extends 'enum' | 'json' ? never : K]?: SchemaFor<TypeOf<A[K]>>;
};

type Wrap<T extends AttributeType, S> = T extends `${string}|null?`
  ? z.ZodMiniOptional<z.ZodMiniNullable<S & z.ZodMiniType>>
  : T extends `${string}?`
    ? z.ZodMiniOptional<S & z.ZodMiniType>
    : T extends `${string}|null`
      ? z.ZodMiniNullable<S & z.ZodMiniType>
      : S;
type Shape<A extends Attributes, R> = {
  -readonly [K in ReadKey<A>]: Wrap<
    TypeOf<A[K]>,
    K extends keyof R ? R[K] : BaseOf<TypeOf<A[K]>> extends keyof Bases ? Bases[BaseOf<TypeOf<A[K]>>] : never
  >;
};

const wrap = (type: AttributeType, base: z.ZodMiniType): z.ZodMiniType => {
  if (type.endsWith('|null?')) return z.optional(z.nullable(base));
  if (type.endsWith('?')) return z.optional(base);
  if (type.endsWith('|null')) return z.nullable(base);
  return base;
};

export function readSchema<const A extends Attributes, const R extends Refinements<A>>(
  declaration: RecordDeclaration<A>,
  refine: R,
): z.ZodMiniObject<Shape<A, R>> {
  const refined = refine as Readonly<Record<string, z.ZodMiniType>>;
  const shape: Record<string, z.ZodMiniType> = {};
  for (const [name, attribute] of Object.entries(declaration.attributes)) {
    if (typeof attribute !== 'string' && 'hidden' in attribute) continue;
    const type = typeof attribute === 'string' ? attribute : attribute.type;
    const base = type.replace(/\|null\??$|\?$/, '') as keyof typeof BASE | 'enum' | 'json';
    const schema = refined[name] ?? (base in BASE ? BASE[base as keyof typeof BASE]() : undefined);
    if (!schema) throw new Error(`${name}: an ${base} attribute needs its schema`);
    shape[name] = wrap(type, schema);
  }
  return z.object(shape) as z.ZodMiniObject<Shape<A, R>>;
}
