import * as z from 'zod/mini';

/**
 * Conventions of docs/api.md section 11, shared by every record.
 *
 * The schemas are written with zod/mini, zod 4's tree-shakable form: the same validation and
 * JSON Schema output as classic zod at about a third of the bundle (docs/performance.md budgets every API
 * bundle at 1.25x its SDK-only floor; classic zod alone took half that allowance).
 */

/** Names a schema for the OpenAPI document (a component under this id). */
export const named = <T extends z.ZodMiniType>(schema: T, id: string, description?: string): T => {
  z.globalRegistry.add(schema, description ? { id, description } : { id });
  return schema;
};

export const describe = <T extends z.ZodMiniType>(schema: T, description: string): T => {
  z.globalRegistry.add(schema, { description });
  return schema;
};

/** A string of `min` to `max` characters. */
export const text = (min: number, max: number) => z.string().check(z.minLength(min), z.maxLength(max));

export const SubjectType = z
  .string()
  .check(
    z.minLength(2),
    z.maxLength(64),
    z.regex(/^[a-z0-9][a-z0-9_-]*$/, 'must match ^[a-z0-9][a-z0-9_-]*$'),
  );

export const SubjectId = text(1, 128);

export const FreeForm = describe(z.record(z.string(), z.unknown()), 'Free-form JSON object');

export const Cursor = text(1, 2048);

/**
 * An RFC 3339 timestamp with `Z` or an offset. At most 35 characters: nanoseconds with an offset
 * (`2026-11-22T19:40:00.123456789+05:30`); the format alone would allow any number of digits.
 */
export const TIMESTAMP_MAX_LENGTH = 35;
export const timestamp = () => z.iso.datetime({ offset: true }).check(z.maxLength(TIMESTAMP_MAX_LENGTH));

/**
 * An integer query parameter from `min` to `max`: decimal digits only, so `0x10`, `1e1`, `+5` or
 * `5.0` are 422 instead of whatever Number() makes of them. A query value arrives as a string;
 * the OpenAPI document shows the integer it stands for.
 */
export const queryInt = (min: number, max: number) => {
  const schema = z.pipe(
    z.transform((value: unknown) =>
      typeof value === 'string' && /^[0-9]+$/.test(value) ? Number(value) : value,
    ),
    z.number().check(z.int(), z.minimum(min), z.maximum(max)),
  );
  z.globalRegistry.add(schema, { type: 'integer', minimum: min, maximum: max });
  return schema;
};

/**
 * docs/api.md section 4: `limit` 1 to 100, default 50. A prefault (a default input, parsed like
 * one): JSON Schema drops a plain default from the input side of a schema that transforms.
 */
export const PAGE_LIMIT_MAX = 100;

export const pageQuery = {
  limit: z.prefault(queryInt(1, PAGE_LIMIT_MAX), 50),
  cursor: z.optional(Cursor),
};

/** A page: at most `limit` items, and the cursor of the next page (a `Cursor` the list issued). */
export const listOf = <T extends z.ZodMiniType>(item: T) =>
  z.object({
    items: z.array(item).check(z.maxLength(PAGE_LIMIT_MAX)),
    next_cursor: z.nullable(Cursor),
  });

export const TenantPath = z.object({ tenant_id: text(1, 64) });

/**
 * docs/api.md section 7: an `Idempotency-Key` is 1 to 255 printable ASCII characters. One
 * definition for the check (functions/http/idempotency.ts) and the OpenAPI document.
 */
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;
export const IDEMPOTENCY_KEY = new RegExp(`^[\\x21-\\x7e]{1,${IDEMPOTENCY_KEY_MAX_LENGTH}}$`);
