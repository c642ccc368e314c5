import { type IndexName, type Key, keyAttributes } from './table';

/**
 * One declaration per entity of the single table, after ElectroDB's models (without its runtime,
 * which our transaction and cursor helpers and the bundle budgets leave no room for). Each module
 * of shared/table/entities/ declares one entity:
 *
 * - `entity(name, indexes)`: the `entity` attribute its items carry, and its keys as templates
 *   over named attributes, for the table and each index its items carry keys for:
 *   `{ table: { pk: 'TENANT#{tenant_id}#EXCEPTION', sk: '{id}' }, gsi1: { ... } }`, where
 *   `{name}` is the attribute's value and `{name:lower}` its lower-case form;
 * - `<name>Record = record(<name>, attributes)`, where the entity holds a record: its attributes
 *   with their types, in the order the API returns them (`hidden` ones the code keeps beside the
 *   record, `derived` ones the domain computes). From it derive the field list, the stored item
 *   type, the stores' typed reader (`reader`) and the API's read schema
 *   (shared/api/schemas/records.ts `readSchema`);
 * - `access`: its documented access patterns (docs/data-model.md), which
 *   shared/table/access-patterns.ts renders from the same templates.
 *
 * The three are separate exports so that a Lambda bundles only what its code uses: esbuild drops
 * an unused constant, but keeps a whole object literal once any of it is used. For the same
 * reason the declarations are marked `/* @__PURE__ *\/`: esbuild keeps every call it cannot
 * prove pure, so without the mark a Lambda would bundle every entity of a module it imports.
 */

export interface KeyTemplate {
  pk: string;
  sk: string;
}

export interface Declaration<
  N extends string = string,
  I extends Declaration['indexes'] = { table: KeyTemplate } & { [X in IndexName]?: KeyTemplate },
> {
  /** The `entity` attribute of every item (stream filters and debugging read it). */
  entity: N;
  /** The key templates of the table and of each index the entity's items carry keys for. */
  indexes: I;
}

type Names<T extends string> = T extends `${string}{${infer A}}${infer R}`
  ? (A extends `${infer N}:lower` ? N : A) | Names<R>
  : never;
type TemplatesOf<K> = K extends KeyTemplate ? K['pk'] | K['sk'] : never;

/** The table (`'table'`) and the indexes a declaration gives keys for. */
export type IndexOf<D extends Declaration> = keyof D['indexes'] & ('table' | IndexName);
type KeyValues<D extends Declaration> = { readonly [A in Names<TemplatesOf<D['indexes']['table']>>]: Value };
type IndexValues<D extends Declaration> = {
  readonly [A in Names<TemplatesOf<D['indexes'][Exclude<IndexOf<D>, 'table'>]>>]?: Value | null;
};
type PartitionValues<D extends Declaration, I extends IndexOf<D>> = {
  readonly [A in Names<D['indexes'][I] extends KeyTemplate ? D['indexes'][I]['pk'] : never>]: Value;
};
type Value = string | number;
/** Any record: domain types are interfaces, which only an index signature of `any` accepts. */
type AnyRecord = { readonly [attribute: string]: any };
type Values = Readonly<Record<string, unknown>>;

export interface Entity<D extends Declaration> {
  /** The table key of an item. */
  key(values: KeyValues<D>): Key;
  /**
   * A whole item: its table and index keys, `entity` and the record (keys from `keyValues` when
   * given). An index whose attributes are not all set is left off the item (sparse).
   */
  item(record: AnyRecord & KeyValues<D> & IndexValues<D>): Record<string, unknown>;
  item(record: AnyRecord, keyValues: KeyValues<D> & IndexValues<D>): Record<string, unknown>;
  /** The index and partition key a Query reads (spread into `queryPage`). */
  query<I extends IndexOf<D>>(
    index: I,
    values: PartitionValues<D, I>,
  ): { index: IndexName | undefined; partition: string };
  /** The literal start of an index's sort key, for `begins_with`. */
  sortPrefix(index: IndexOf<D>): string;
}

export const PLACEHOLDER = /\{(\w+)(:lower)?\}/g;

/** The template with its attributes filled in; undefined when one of them is not set. */
const fill = (template: string, values: Values): string | undefined => {
  let complete = true;
  const text = template.replace(PLACEHOLDER, (_, name: string, lower?: string) => {
    const value = String(values[name] ?? '');
    if (!value) complete = false;
    return lower ? value.toLowerCase() : value;
  });
  return complete ? text : undefined;
};

/** The literal start of a template, before its first placeholder (a `begins_with` prefix). */
export const prefixOf = (template: string) => template.split('{')[0]!;

export function entity<const N extends string, const I extends Declaration['indexes']>(
  name: N,
  indexes: I,
): Declaration<N, I> & Entity<Declaration<N, I>> {
  const templates = indexes as Readonly<Record<string, KeyTemplate>>;
  /** The table key, and with `all` every index key too; an index missing an attribute is left off. */
  const keys = (values: Values, all: boolean) => {
    const out: Record<string, string> = {};
    for (const [index, template] of Object.entries(templates)) {
      if (!all && index !== 'table') continue;
      const pk = fill(template.pk, values);
      const sk = fill(template.sk, values);
      if (pk === undefined || sk === undefined) continue;
      const names = keyAttributes(index as IndexName);
      out[names.partitionKey] = pk;
      out[names.sortKey] = sk;
    }
    return out;
  };
  const methods: Record<keyof Entity<Declaration>, unknown> = {
    key: (values: Values) => keys(values, false),
    item: (record: Values, keyValues: Values = record) => ({
      ...keys(keyValues, true),
      entity: name,
      ...record,
    }),
    query: (index: string, values: Values) => ({
      index: index === 'table' ? undefined : index,
      partition: fill(templates[index]!.pk, values),
    }),
    sortPrefix: (index: string) => prefixOf(templates[index]!.sk),
  };
  return { entity: name, indexes, ...methods } as Declaration<N, I> & Entity<Declaration<N, I>>;
}

/**
 * One documented access pattern of an entity: the index it reads and how its sort key is
 * matched (the whole key, a prefix, an upper bound, or not at all: the whole partition).
 */
export interface AccessPatternSpec<I extends string = string> {
  name: string;
  /** The table unless given. */
  index?: I;
  sortKey?: 'equals' | 'begins_with' | { lessThan: string };
  notes?: string;
}

/**
 * An entity's documented access patterns: documentation data, exported beside the declaration
 * as a plain literal so that no Lambda bundles it; shared/table/access-patterns.ts renders them.
 */
export interface AccessDoc<D extends Declaration = Declaration> {
  entity: D;
  /** What a placeholder stands for in the documentation, where its attribute name alone does not say. */
  labels?: Readonly<Record<string, string>>;
  patterns: readonly AccessPatternSpec<IndexOf<D>>[];
}

/**
 * The type of an attribute, after ElectroDB's attribute types: a base type, `|null` when the
 * record may hold null, and a trailing `?` when the attribute may be missing altogether. The API's
 * read schemas map them to zod (shared/api/schemas/records.ts); `enum` and `json` are refined
 * there with the schema that says which values (an enum's named schema, a nested object's).
 */
type BaseType = 'string' | 'datetime' | 'date' | 'int' | 'number' | 'boolean' | 'string[]' | 'enum' | 'json';
export type AttributeType = BaseType | `${BaseType}|null` | `${BaseType}?` | `${BaseType}|null?`;
/**
 * An attribute: its type; or its type and `hidden: true` for one the item keeps for the code (a
 * lease, a fingerprint, the job a review item holds) that is no field of the API's record; or
 * `derived: true` for a field of the API's record that the domain computes and no item stores (a
 * session's status, a connection's health), declared here for its place in the read shape.
 */
export type Attribute =
  | AttributeType
  | { readonly type: AttributeType; readonly hidden: true }
  | { readonly type: AttributeType; readonly derived: true };
export type Attributes = Readonly<Record<string, Attribute>>;

type TypeOf<A extends Attribute> = A extends { type: infer T } ? T : A;
type BaseOf<B> = B extends 'string' | 'datetime' | 'date' | 'enum'
  ? string
  : B extends 'int' | 'number'
    ? number
    : B extends 'boolean'
      ? boolean
      : B extends 'string[]'
        ? string[]
        : unknown;
/** An attribute's value as read back: a missing one reads as null. */
export type ValueOf<T> = T extends `${infer B}|null?`
  ? BaseOf<B> | null | undefined
  : T extends `${infer B}?`
    ? BaseOf<B> | null | undefined
    : T extends `${infer B}|null`
      ? BaseOf<B> | null
      : BaseOf<T>;

/** The stored attributes a record reads back into its API fields (neither hidden nor derived). */
export type FieldOf<A extends Attributes> = {
  [K in keyof A]: A[K] extends string ? K : never;
}[keyof A] &
  string;
/** The attributes an item stores (hidden ones included, derived ones not). */
export type StoredOf<A extends Attributes> = {
  [K in keyof A]: A[K] extends { derived: true } ? never : K;
}[keyof A] &
  string;
/** The stored item's record attributes (key attributes and `entity` aside), hidden ones included. */
export type StoredItem<A extends Attributes> = { -readonly [K in StoredOf<A>]: ValueOf<TypeOf<A[K]>> };
/** The record as the API reads it: the stored item without its hidden attributes. */
export type RecordOf<A extends Attributes> = { -readonly [K in FieldOf<A>]: ValueOf<TypeOf<A[K]>> };

/**
 * One record's declaration beside its entity's keys: its attributes with their types, in the
 * order the API returns them. From it derive the field list the stores copy out of an item (so
 * key and internal attributes never reach a client), the stored item type, the typed reader
 * (`reader`) and the API's read schema (shared/api/schemas/records.ts).
 */
export interface RecordDeclaration<A extends Attributes = Attributes> {
  attributes: A;
  /** The read shape's fields, in order. */
  fields: readonly FieldOf<A>[];
  /** Every stored record attribute, hidden ones included, in order. */
  stored: readonly StoredOf<A>[];
}

/** Any record declaration, for code that reads its lists without its attribute types. */
export interface AnyRecordDeclaration {
  attributes: Attributes;
  fields: readonly string[];
  stored: readonly string[];
}

/** `entity` is the declaration whose items hold the record (its keys), named for the reader. */
export function record<const A extends Attributes>(entity: Declaration, attributes: A): RecordDeclaration<A> {
  const names = Object.keys(attributes);
  const fields = names.filter((name) => typeof attributes[name] === 'string') as FieldOf<A>[];
  const stored = names.filter((name) => !(attributes[name] as { derived?: true }).derived) as StoredOf<A>[];
  return { attributes, fields, stored };
}

/**
 * The names of R that the declaration does not give as fields (or gives with a type R's field
 * does not refine), and the declared fields R lacks: never when R is the declared record.
 */
type Mismatch<R, A extends Attributes, F extends keyof A> = {
  [K in keyof R | F]-?: K extends keyof R
    ? K extends F
      ? R[K] extends ValueOf<TypeOf<A[K]>>
        ? never
        : K
      : K
    : K;
}[keyof R | F];

/** What `reader` accepts: the declaration when R is its record, else an error naming the fields. */
type Checked<R, A extends Attributes, F extends keyof A> = [Mismatch<R, A, F>] extends [never]
  ? RecordDeclaration<A>
  : RecordDeclaration<A> & { 'the record type and the declaration disagree on': Mismatch<R, A, F> };

const readerOf =
  (stored: boolean) =>
  (declaration: AnyRecordDeclaration) =>
  (item: Readonly<Record<string, unknown>>): Record<string, unknown> =>
    Object.fromEntries(
      (stored ? declaration.stored : declaration.fields).map((name) => [name, item[name] ?? null]),
    );

/**
 * The typed item-to-record mapping: `reader<Task>()(taskRecord)` reads a stored item as a Task,
 * copying the declared fields (a missing one as null). It compiles only when Task has exactly the
 * declared fields, each of a type that refines the declared one (an enum's values, a nested
 * object's shape): the one place a stored item is trusted to be what its declaration wrote.
 */
export const reader =
  <R>() =>
  <A extends Attributes>(declaration: Checked<R, A, FieldOf<A>>) =>
    readerOf(false)(declaration) as (item: Readonly<Record<string, unknown>>) => R;

/** `reader`, hidden attributes included: for the records the code keeps whole (an export's lease). */
export const storedReader =
  <R>() =>
  <A extends Attributes>(declaration: Checked<R, A, StoredOf<A>>) =>
    readerOf(true)(declaration) as (item: Readonly<Record<string, unknown>>) => R;
