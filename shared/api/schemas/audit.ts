import * as z from 'zod/mini';
import { pageQuery, text } from './common';

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
