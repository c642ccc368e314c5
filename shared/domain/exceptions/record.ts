import type { BusinessException } from './ports';

/**
 * What reports an exception (a person through the API, a reconciliation run): the fields its
 * reporter chooses. Impact and evidence are JSON values, kept as text.
 */
export type ExceptionReport = Pick<
  BusinessException,
  'id' | 'tenant_id' | 'exception_type' | 'severity' | 'subject_type' | 'subject_id' | 'title' | 'summary'
> & { impact?: unknown; evidence?: unknown; observation_ids?: string[] | undefined };

/**
 * A new exception: open, detected `now`. The one place an exception record is built, so that a
 * field added to the record's declaration (shared/table/entities/exception.ts) is filled here.
 */
export const openException = (report: ExceptionReport, now: string): BusinessException => ({
  id: report.id,
  tenant_id: report.tenant_id,
  exception_type: report.exception_type,
  severity: report.severity,
  status: 'open',
  subject_type: report.subject_type,
  subject_id: report.subject_id,
  title: report.title,
  summary: report.summary,
  impact_json: JSON.stringify(report.impact ?? {}),
  evidence_json: JSON.stringify(report.evidence ?? {}),
  observation_ids: report.observation_ids ?? [],
  detected_at: now,
  created_at: now,
  updated_at: now,
  resolved_at: null,
  escalation: null,
});
