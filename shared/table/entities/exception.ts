import { type AccessDoc, entity, record } from '../entity';

/**
 * A business exception (docs/api.md section 6). Its status index (gsi1) is what answers "what
 * is open" with a full first page however many exceptions the tenant has resolved (docs/api.md
 * section 4); a status change moves its entry (a delete and a put in the index), a cost the
 * write-unit budget counts (docs/decisions.md, lists at any size).
 */
export const exception = /* @__PURE__ */ entity('exception', {
  table: { pk: 'TENANT#{tenant_id}#EXCEPTION', sk: '{id}' },
  gsi1: { pk: 'TENANT#{tenant_id}#EXCEPTION#STATUS#{status}', sk: '{id}' },
  gsi2: { pk: 'TENANT#{tenant_id}#EXCEPTION#SUBJECT#{subject_type}#{subject_id}', sk: '{id}' },
  // The type never changes, so unlike the status entry this one is written once and never moves.
  gsi3: { pk: 'TENANT#{tenant_id}#EXCEPTION#TYPE#{exception_type}', sk: '{id}' },
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
  /**
   * The escalation it is under: `{policy_id, level, next_at}` (the level that fires next, and
   * when), or null (none attached, or stopped). Items older than escalation policies read null.
   */
  escalation: 'json|null',
  /**
   * While it is acknowledged under a policy with an acknowledgement timeout: when the timeout
   * falls due. Its `ack_timeout` timer re-opens the exception only if this still holds, so a
   * redelivered firing of an earlier acknowledgement's timer does nothing.
   */
  ack_timeout_at: { type: 'datetime|null', hidden: true },
  /** The policy it is under, kept when no level is pending (its acknowledgement may still time out). */
  escalation_policy_id: { type: 'string|null', hidden: true },
  /** How many times the levels have repeated (0 on the first pass). */
  escalation_round: { type: 'int|null', hidden: true },
});

export const access = {
  entity: exception,
  labels: { id: 'exception_id' },
  patterns: [
    { name: 'Get exception', sortKey: 'equals' },
    {
      name: 'List exceptions, newest first',
      notes: 'severity, and subject_type without subject_id, are filters on the table',
    },
    {
      name: 'List exceptions by status',
      index: 'gsi1',
      notes: 'severity and type, when also given, are filters; subject_type without subject_id too',
    },
    {
      name: 'List exceptions by subject',
      index: 'gsi2',
      notes: 'status, severity and type, when also given, are filters (one subject has few exceptions)',
    },
    {
      name: 'List exceptions by type',
      index: 'gsi3',
      notes: 'without status or a subject; severity, and subject_type without subject_id, are filters',
    },
  ],
} satisfies AccessDoc<typeof exception>;
