import * as z from 'zod';
import { DateTime, FreeForm, listOf, pageQuery, SubjectId, SubjectType } from './common';

export const EXCEPTION_SEVERITIES = ['info', 'warning', 'critical'] as const;
export const EXCEPTION_STATUSES = ['open', 'acknowledged', 'resolved'] as const;

export const ExceptionSeverity = z.enum(EXCEPTION_SEVERITIES);
export const ExceptionStatus = z.enum(EXCEPTION_STATUSES);

/** Seed section 2.5 and the limits of section 8. */
export const BusinessExceptionCreate = z
  .strictObject({
    exception_type: z
      .string()
      .min(2)
      .max(128)
      .regex(/^[a-z0-9][a-z0-9_.-]*$/, 'must match ^[a-z0-9][a-z0-9_.-]*$'),
    subject_type: SubjectType,
    subject_id: SubjectId,
    title: z.string().min(2).max(255),
    summary: z.string().min(2).max(2000),
    severity: ExceptionSeverity.default('warning'),
    evidence: FreeForm.optional(),
    impact: FreeForm.optional(),
    observation_ids: z.array(z.string().min(1).max(128)).max(20).optional(),
  })
  .meta({ id: 'BusinessExceptionCreate' });

export const BusinessExceptionRead = z
  .object({
    id: z.string(),
    tenant_id: z.string(),
    exception_type: z.string(),
    severity: ExceptionSeverity,
    status: ExceptionStatus,
    subject_type: z.string(),
    subject_id: z.string(),
    title: z.string(),
    summary: z.string(),
    impact_json: z.string(),
    evidence_json: z.string(),
    observation_ids: z.array(z.string()).optional(),
    detected_at: DateTime,
    created_at: DateTime.nullable().optional(),
    updated_at: DateTime.nullable().optional(),
    resolved_at: DateTime.nullable().optional(),
  })
  .meta({ id: 'BusinessExceptionRead' });

export const BusinessExceptionStatusChange = z
  .strictObject({
    status: z.enum(['acknowledged', 'resolved']),
    note: z.string().min(2).max(255).nullable().optional(),
  })
  .meta({ id: 'BusinessExceptionStatusChange' });

export const BusinessExceptionList = listOf(BusinessExceptionRead).meta({ id: 'BusinessExceptionList' });

export const ExceptionListQuery = z.strictObject({
  status: ExceptionStatus.optional(),
  severity: ExceptionSeverity.optional(),
  subject_type: SubjectType.optional(),
  subject_id: SubjectId.optional(),
  ...pageQuery,
});

export const ExceptionPath = z.object({
  tenant_id: z.string().min(1).max(64),
  exception_id: z.string().min(1).max(64),
});
