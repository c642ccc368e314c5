import * as z from 'zod/mini';
import { Role } from './auth';
import { listOf, named } from './common';
import { DateTime } from './datetime';
import { ExceptionEscalationRead } from './escalation-responses';
import { ExceptionSeverity, ExceptionStatus } from './exceptions';
import { NotificationCategory, NotificationPriority } from './inbox';
import { MutedEntry, PreferenceContacts, QuietHours } from './preferences';
import { NotificationChannel, NotificationStatus, ReviewItemKind, ReviewItemStatus } from './notifications';
import { auditRecord } from '#shared/table/entities/audit';
import { exceptionRecord } from '#shared/table/entities/exception';
import { inboxItemRecord } from '#shared/table/entities/inbox-item';
import { invitationRecord } from '#shared/table/entities/invitation';
import { notificationRecord } from '#shared/table/entities/notification';
import { preferencesRecord } from '#shared/table/entities/preferences';
import { reviewItemRecord } from '#shared/table/entities/review-item';
import { sessionRecord } from '#shared/table/entities/session';
import { tenantRecord } from '#shared/table/entities/tenant';
import { userRecord } from '#shared/table/entities/user';
import { readSchema } from './records';

/**
 * The response records. Only the OpenAPI document (and the types of the domain) use them: no
 * handler validates its own output, so keeping them apart keeps them out of the Lambda bundles
 * (zod's schema constructors are not side-effect free, so a module's every schema is bundled).
 */

export { DateTime };
export * from './record-responses';
export * from './integration-responses';
export * from './preview-responses';
export * from './accounting-responses';

export const UserRead = named(readSchema(userRecord, {}), 'UserRead');

export const MembershipRead = named(
  z.object({ tenant_id: z.string(), tenant_name: z.string(), role: Role, created_at: DateTime }),
  'MembershipRead',
);

export const AccessTokenRead = named(
  z.object({
    access_token: z.string(),
    expires_at: DateTime,
    token_type: z._default(z.literal('bearer'), 'bearer'),
    user: UserRead,
  }),
  'AccessTokenRead',
);

export const AuthMeRead = named(
  z.object({
    user: UserRead,
    memberships: z.array(MembershipRead),
    platform_roles: z.optional(z.array(z.literal('platform_admin'))),
  }),
  'AuthMeRead',
);

export const SESSION_STATUSES = ['active', 'revoked', 'expired'] as const;

export const AuthSessionRead = named(
  readSchema(sessionRecord, { status: z.enum(SESSION_STATUSES) }),
  'AuthSessionRead',
);

export const AuthSessionList = named(z.object({ items: z.array(AuthSessionRead) }), 'AuthSessionList');

export const TenantRead = named(readSchema(tenantRecord, { status: z.enum(['active']) }), 'TenantRead');

export const TenantList = named(listOf(TenantRead), 'TenantList');

export const MemberRead = named(
  z.object({
    tenant_id: z.string(),
    user_id: z.string(),
    email: z.string(),
    display_name: z.string(),
    role: Role,
    created_at: DateTime,
    updated_at: z.optional(z.nullable(DateTime)),
  }),
  'MemberRead',
);

export const MemberList = named(listOf(MemberRead), 'MemberList');

/** Lists and answers show pending invitations only; the others are kept for a clear 409. */
export const INVITATION_STATUSES = ['pending', 'accepted', 'declined', 'revoked'] as const;

export const MemberInvitationRead = named(
  readSchema(invitationRecord, { role: Role, status: z.enum(INVITATION_STATUSES) }),
  'MemberInvitationRead',
);

export const MemberInvitationList = named(listOf(MemberInvitationRead), 'MemberInvitationList');

export const AuthInvitationList = named(
  z.object({ items: z.array(MemberInvitationRead) }),
  'AuthInvitationList',
);

export const BusinessExceptionRead = named(
  readSchema(exceptionRecord, {
    severity: ExceptionSeverity,
    status: ExceptionStatus,
    escalation: ExceptionEscalationRead,
  }),
  'BusinessExceptionRead',
);

export const BusinessExceptionList = named(listOf(BusinessExceptionRead), 'BusinessExceptionList');

export const AuditEventRead = named(readSchema(auditRecord, {}), 'AuditEventRead');

export const AuditEventList = named(listOf(AuditEventRead), 'AuditEventList');

export const NotificationAttemptRead = named(
  z.object({
    attempt: z.int(),
    at: DateTime,
    /**
     * A send's outcome, or a step that sent nothing (docs/api.md sections 7.3 and 7.4):
     * `suppressed` (muted or a duplicate, `reason` says which), `scheduled` (quiet hours),
     * `released` (the quiet hours ended), `digesting` (held for a digest), `digested` (went in it).
     */
    outcome: z.enum([
      'delivered',
      'transient_failure',
      'permanent_failure',
      'gated',
      'suppressed',
      'scheduled',
      'released',
      'digesting',
      'digested',
    ]),
    /** A public-safe reason code (`http_503`, `timeout`, `not_connected`…), never a provider payload. */
    reason: z.nullable(z.string()),
    latency_ms: z.nullable(z.number()),
  }),
  'NotificationAttemptRead',
);

export const NotificationRead = named(
  readSchema(notificationRecord, {
    channel: NotificationChannel,
    category: NotificationCategory,
    priority: NotificationPriority,
    status: NotificationStatus,
    attempts: z.array(NotificationAttemptRead),
  }),
  'NotificationRead',
);

export const NotificationList = named(listOf(NotificationRead), 'NotificationList');

export const ReviewItemRead = named(
  readSchema(reviewItemRecord, {
    channel: NotificationChannel,
    reason: z.enum([
      'gated',
      'permanent_failure',
      'dead_lettered',
      'policy_rejected',
      'invalid_action',
      'action_failed',
      'check_failed',
      'endpoint_disabled',
      'invalid_transition',
      'loop_limit',
    ]),
    status: ReviewItemStatus,
    decision: z.enum(['retry', 'discard']),
    kind: ReviewItemKind,
  }),
  'ReviewItemRead',
);

export const ReviewItemList = named(listOf(ReviewItemRead), 'ReviewItemList');

export const Problem = named(
  z.object({
    type: z.string(),
    title: z.string(),
    status: z.int(),
    code: z.string(),
    detail: z.optional(z.string()),
    request_id: z.string(),
    errors: z.optional(z.array(z.object({ path: z.string(), code: z.string(), message: z.string() }))),
  }),
  'Problem',
  'RFC 9457 problem details',
);

export const OpsMetricsRead = named(
  z.object({
    generated_at: DateTime,
    queues: z.array(
      z.object({
        name: z.string(),
        visible: z.int(),
        in_flight: z.int(),
        dlq_depth: z.int(),
      }),
    ),
    outbox: z.object({
      /** Outbox events the relay has not published yet. */
      pending: z.int(),
      /** Seconds since the oldest of them happened; null when none is pending. */
      oldest_age_seconds: z.nullable(z.int()),
    }),
    /** Open review items of every tenant, by kind (every kind listed, zero included). */
    review_items_open: z.record(ReviewItemKind, z.int()),
  }),
  'OpsMetricsRead',
);

/** A member's own notification preferences (docs/api.md section 7.3). */
export const PreferencesRead = named(
  readSchema(preferencesRecord, {
    contacts: PreferenceContacts,
    muted: z.array(MutedEntry),
    quiet_hours: QuietHours,
  }),
  'PreferencesRead',
);

/** One in-app notification in its recipient's inbox (docs/api.md section 7.1). */
export const InboxItemRead = named(
  readSchema(inboxItemRecord, { category: NotificationCategory, priority: NotificationPriority }),
  'InboxItemRead',
);

export const InboxItemList = named(listOf(InboxItemRead), 'InboxItemList');

export const InboxSummaryRead = named(
  z.object({
    unread: z.int(),
    /** Every category, zero included. */
    unread_by_category: z.record(NotificationCategory, z.int()),
  }),
  'InboxSummaryRead',
);

export const InboxReadAllResult = named(z.object({ updated: z.int() }), 'InboxReadAllResult');
