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

/**
 * What a text input may hold (docs/api.md section 11, "Text"):
 * - `line` (the default: ids, keys, addresses, one-line values): no C0 control character (U+0000
 *   to U+001F, tab and newlines included) and no unpaired surrogate;
 * - `free` (descriptions, summaries, notes, message bodies): the same, but tab, LF and CR stay;
 * - `name` (names, titles, subjects): `line`, and no bidirectional embedding, override or
 *   isolate character (U+202A to U+202E, U+2066 to U+2069) and no U+FEFF: invisible in a list,
 *   they make one name look like another.
 */
export type TextKind = 'line' | 'free' | 'name';

/* eslint-disable no-control-regex -- finding control characters is the point */
const CONTROL: Record<TextKind, RegExp> = {
  line: /[\u0000-\u001f]/,
  name: /[\u0000-\u001f]/,
  free: /[\u0000-\u0008\u000b\u000c\u000e-\u001f]/,
};
/* eslint-enable no-control-regex */
// Without the `u` flag a regular expression sees UTF-16 code units, so a lone half is visible.
const UNPAIRED_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const BIDI_OR_BOM = /[\u202a-\u202e\u2066-\u2069\ufeff]/;

/** Why `value` is not text of `kind`, or undefined when it is. */
export function textProblem(value: string, kind: TextKind): string | undefined {
  if (UNPAIRED_SURROGATE.test(value)) return 'must not contain an unpaired surrogate';
  if (CONTROL[kind].test(value))
    return kind === 'free'
      ? 'must not contain control characters other than tab and newline'
      : 'must not contain control characters';
  if (kind === 'name' && BIDI_OR_BOM.test(value))
    return 'must not contain bidirectional control characters or U+FEFF';
  return undefined;
}

/** The check of a text field of `kind`: a 422 `invalid_text` naming the field. */
export const textRule = (kind: TextKind = 'line') =>
  z.superRefine((value: string, ctx) => {
    const message = textProblem(value, kind);
    if (message) ctx.issues.push({ code: 'custom', message, input: value, params: { code: 'invalid_text' } });
  });

/** A text of `min` to `max` characters, of `kind` (the one way a request's string is declared). */
export const text = (min: number, max: number, kind: TextKind = 'line') =>
  z.string().check(z.minLength(min), z.maxLength(max), textRule(kind));

/** Every string in free-form JSON, and every key, is checked as `free` text (keys as `line`), naming its path. */
const freeFormText = /* @__PURE__ */ z.superRefine((value: Record<string, unknown>, ctx) => {
  const walk = (v: unknown, path: (string | number)[]) => {
    if (typeof v === 'string') {
      const message = textProblem(v, 'free');
      if (message)
        ctx.issues.push({ code: 'custom', message, input: v, path, params: { code: 'invalid_text' } });
    } else if (Array.isArray(v)) v.forEach((item, i) => walk(item, [...path, i]));
    else if (v && typeof v === 'object')
      for (const [key, item] of Object.entries(v)) {
        const message = textProblem(key, 'line');
        if (message)
          ctx.issues.push({
            code: 'custom',
            message,
            input: key,
            path: [...path, key],
            params: { code: 'invalid_text' },
          });
        walk(item, [...path, key]);
      }
  };
  walk(value, []);
});

export const SubjectType = z
  .string()
  .check(
    z.minLength(2),
    z.maxLength(64),
    z.regex(/^[a-z0-9][a-z0-9_-]*$/, 'must match ^[a-z0-9][a-z0-9_-]*$'),
  );

export const SubjectId = /* @__PURE__ */ text(1, 128);

/** A free-form JSON object checked as FreeForm is, for schemas that describe it their own way. */
export const freeFormObject = () => z.record(z.string(), z.unknown()).check(freeFormText);

// Pure: a route group that declares no free-form field (api-tenants) bundles none of its checks.
export const FreeForm = /* @__PURE__ */ describe(/* @__PURE__ */ freeFormObject(), 'Free-form JSON object');

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
