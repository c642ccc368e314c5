import * as z from 'zod';
import { DateTime, listOf, pageQuery } from './common';

export const AuditEventRead = z
  .object({
    id: z.string(),
    tenant_id: z.string(),
    event_type: z.string(),
    actor_id: z.string().nullable().optional(),
    entity_type: z.string().nullable().optional(),
    entity_id: z.string().nullable().optional(),
    summary: z.string().nullable().optional(),
    metadata_json: z.string().nullable().optional(),
    created_at: DateTime.nullable().optional(),
  })
  .meta({ id: 'AuditEventRead' });

export const AuditEventList = listOf(AuditEventRead).meta({ id: 'AuditEventList' });

export const AuditListQuery = z
  .strictObject({
    entity_type: z.string().min(1).max(64).optional(),
    entity_id: z.string().min(1).max(128).optional(),
    ...pageQuery,
  })
  .refine((q) => q.entity_id === undefined || q.entity_type !== undefined, {
    path: ['entity_type'],
    message: 'entity_type is required with entity_id',
  });
