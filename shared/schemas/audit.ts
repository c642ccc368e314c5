import * as z from 'zod/mini';
import { DateTime, listOf, named, pageQuery, text } from './common';

export const AuditEventRead = named(
  z.object({
    id: z.string(),
    tenant_id: z.string(),
    event_type: z.string(),
    actor_id: z.optional(z.nullable(z.string())),
    entity_type: z.optional(z.nullable(z.string())),
    entity_id: z.optional(z.nullable(z.string())),
    summary: z.optional(z.nullable(z.string())),
    metadata_json: z.optional(z.nullable(z.string())),
    created_at: z.optional(z.nullable(DateTime)),
  }),
  'AuditEventRead',
);

export const AuditEventList = named(listOf(AuditEventRead), 'AuditEventList');

export const AuditListQuery = z
  .strictObject({
    entity_type: z.optional(text(1, 64)),
    entity_id: z.optional(text(1, 128)),
    ...pageQuery,
  })
  .check(
    z.refine((q) => q.entity_id === undefined || q.entity_type !== undefined, {
      path: ['entity_type'],
      message: 'entity_type is required with entity_id',
    }),
  );
