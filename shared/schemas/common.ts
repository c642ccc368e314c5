import * as z from 'zod';

/** Conventions of seed section 2, shared by every record. */

export const DateTime = z.iso.datetime({ offset: true }).meta({ description: 'ISO 8601 timestamp' });

export const SubjectType = z
  .string()
  .min(2)
  .max(64)
  .regex(/^[a-z0-9][a-z0-9_-]*$/, 'must match ^[a-z0-9][a-z0-9_-]*$');

export const SubjectId = z.string().min(1).max(128);

export const FreeForm = z.record(z.string(), z.unknown()).meta({ description: 'Free-form JSON object' });

export const Cursor = z.string().min(1).max(2048);

/** CONTRACT.md section 4: `limit` 1 to 100, default 50. */
export const pageQuery = {
  limit: z.coerce.number().int().min(1).max(100).default(50),
  cursor: Cursor.optional(),
};

export const listOf = <T extends z.ZodType>(item: T) =>
  z.object({ items: z.array(item), next_cursor: z.string().nullable() });

export const TenantPath = z.object({ tenant_id: z.string().min(1).max(64) });

export const Problem = z
  .object({
    type: z.string(),
    title: z.string(),
    status: z.number().int(),
    code: z.string(),
    detail: z.string().optional(),
    request_id: z.string(),
    errors: z.array(z.object({ path: z.string(), code: z.string(), message: z.string() })).optional(),
  })
  .meta({ id: 'Problem', description: 'RFC 9457 problem details' });
