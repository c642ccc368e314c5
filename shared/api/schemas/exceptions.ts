import * as z from 'zod/mini';
import { FreeForm, named, pageQuery, SubjectId, SubjectType, text } from './common';

export const EXCEPTION_SEVERITIES = ['info', 'warning', 'critical'] as const;
export const EXCEPTION_STATUSES = ['open', 'acknowledged', 'resolved'] as const;

export const ExceptionSeverity = z.enum(EXCEPTION_SEVERITIES);
export const ExceptionStatus = z.enum(EXCEPTION_STATUSES);

export const EXCEPTION_TYPE_PATTERN = /^[a-z0-9][a-z0-9_.-]*$/;

/** The exception type as the create body bounds it (the list's `type` filter takes the same). */
const ExceptionType = z
  .string()
  .check(
    z.minLength(2),
    z.maxLength(128),
    z.regex(EXCEPTION_TYPE_PATTERN, 'must match ^[a-z0-9][a-z0-9_.-]*$'),
  );

/** The fields and bounds of docs/api.md sections 6 and 11. */
export const BusinessExceptionCreate = named(
  z.strictObject({
    exception_type: ExceptionType,
    subject_type: SubjectType,
    subject_id: SubjectId,
    title: text(2, 255, 'name'),
    summary: text(2, 2000, 'free'),
    severity: z._default(ExceptionSeverity, 'warning'),
    evidence: z.optional(FreeForm),
    impact: z.optional(FreeForm),
    observation_ids: z.optional(z.array(text(1, 128)).check(z.maxLength(20))),
  }),
  'BusinessExceptionCreate',
);

export const BusinessExceptionStatusChange = named(
  z.strictObject({
    status: z.enum(['acknowledged', 'resolved']),
    note: z.optional(z.nullable(text(2, 255, 'free'))),
  }),
  'BusinessExceptionStatusChange',
);

export const ExceptionListQuery = z.strictObject({
  status: z.optional(ExceptionStatus),
  severity: z.optional(ExceptionSeverity),
  type: z.optional(ExceptionType),
  subject_type: z.optional(SubjectType),
  subject_id: z.optional(SubjectId),
  ...pageQuery,
});

export const ExceptionPath = z.object({ tenant_id: text(1, 64), exception_id: text(1, 64) });
