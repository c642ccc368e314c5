import { type AccessDoc, entity } from '../entity';

/**
 * A business exception (docs/api.md section 6). No index is keyed on its status: every status
 * change would move that entry (a delete and a put, 4 transactional write units), so a list by
 * status filters the tenant's partition instead (docs/decisions.md, write cost).
 */
export const exception = /* @__PURE__ */ entity('exception', {
  table: { pk: 'TENANT#{tenant_id}#EXCEPTION', sk: '{id}' },
  gsi2: { pk: 'TENANT#{tenant_id}#EXCEPTION#SUBJECT#{subject_type}#{subject_id}', sk: '{id}' },
});

/** The exception record the stores read back (BusinessExceptionRead's fields, in order). */
export const EXCEPTION_FIELDS = [
  'id',
  'tenant_id',
  'exception_type',
  'severity',
  'status',
  'subject_type',
  'subject_id',
  'title',
  'summary',
  'impact_json',
  'evidence_json',
  'observation_ids',
  'detected_at',
  'created_at',
  'updated_at',
  'resolved_at',
] as const;

export const access = {
  entity: exception,
  labels: { id: 'exception_id' },
  patterns: [
    { name: 'Get exception', sortKey: 'equals' },
    {
      name: 'List exceptions, newest first',
      notes: 'severity is a filter expression on whichever index answers',
    },
    {
      name: 'List exceptions by status',
      notes: 'status is a filter expression on the table: a page may hold fewer items than its limit',
    },
    {
      name: 'List exceptions by subject',
      index: 'gsi2',
      notes: 'subject_type alone, or with status, is a filter on the table',
    },
  ],
} satisfies AccessDoc<typeof exception>;
