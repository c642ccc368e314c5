import { type AccessDoc, entity, record } from '../entity';

/**
 * A business exception (docs/api.md section 2.5). No index is keyed on its status: every status
 * change would move that entry (a delete and a put, 4 transactional write units), so a list by
 * status filters the tenant's partition instead (docs/decisions.md, write cost).
 */
export const exception = /* @__PURE__ */ entity('exception', {
  table: { pk: 'TENANT#{tenant_id}#EXCEPTION', sk: '{id}' },
  gsi2: { pk: 'TENANT#{tenant_id}#EXCEPTION#SUBJECT#{subject_type}#{subject_id}', sk: '{id}' },
});

/** The exception record, in the order the API returns it (BusinessExceptionRead derives from it). */
export const exceptionRecord = /* @__PURE__ */ record(exception, {
  id: 'string',
  tenant_id: 'string',
  exception_type: 'string',
  severity: 'enum',
  status: 'enum',
  subject_type: 'string',
  subject_id: 'string',
  title: 'string',
  summary: 'string',
  impact_json: 'string',
  evidence_json: 'string',
  observation_ids: 'string[]?',
  detected_at: 'datetime',
  created_at: 'datetime|null?',
  updated_at: 'datetime|null?',
  resolved_at: 'datetime|null?',
});

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
