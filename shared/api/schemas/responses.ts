import * as z from 'zod/mini';
import { Role } from './auth';
import { listOf, named } from './common';
import { DateTime } from './datetime';
import { ExceptionSeverity, ExceptionStatus } from './exceptions';
import { NotificationCategory, NotificationPriority } from './inbox';
import { NotificationChannel, NotificationStatus, ReviewItemKind, ReviewItemStatus } from './notifications';

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

export const UserRead = named(
  z.object({ id: z.string(), email: z.string(), display_name: z.string(), created_at: DateTime }),
  'UserRead',
);

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
  z.object({
    token_id: z.string(),
    user_id: z.string(),
    user_email: z.string(),
    user_display_name: z.string(),
    status: z.enum(SESSION_STATUSES),
    expires_at: DateTime,
    tenant_ids: z.array(z.string()),
    created_at: z.optional(z.nullable(DateTime)),
    last_used_at: z.optional(z.nullable(DateTime)),
    revoked_at: z.optional(z.nullable(DateTime)),
  }),
  'AuthSessionRead',
);

export const AuthSessionList = named(z.object({ items: z.array(AuthSessionRead) }), 'AuthSessionList');

export const TenantRead = named(
  z.object({ id: z.string(), name: z.string(), status: z.enum(['active']), created_at: DateTime }),
  'TenantRead',
);

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
  z.object({
    id: z.string(),
    tenant_id: z.string(),
    tenant_name: z.string(),
    email: z.string(),
    role: Role,
    status: z.enum(INVITATION_STATUSES),
    invited_by: z.string(),
    created_at: DateTime,
    expires_at: DateTime,
  }),
  'MemberInvitationRead',
);

export const MemberInvitationList = named(listOf(MemberInvitationRead), 'MemberInvitationList');

export const AuthInvitationList = named(
  z.object({ items: z.array(MemberInvitationRead) }),
  'AuthInvitationList',
);

export const BusinessExceptionRead = named(
  z.object({
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
    observation_ids: z.optional(z.array(z.string())),
    detected_at: DateTime,
    created_at: z.optional(z.nullable(DateTime)),
    updated_at: z.optional(z.nullable(DateTime)),
    resolved_at: z.optional(z.nullable(DateTime)),
  }),
  'BusinessExceptionRead',
);

export const BusinessExceptionList = named(listOf(BusinessExceptionRead), 'BusinessExceptionList');

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

export const NotificationAttemptRead = named(
  z.object({
    attempt: z.int(),
    at: DateTime,
    outcome: z.enum(['delivered', 'transient_failure', 'permanent_failure', 'gated']),
    /** A public-safe reason code (`http_503`, `timeout`, `not_connected`…), never a provider payload. */
    reason: z.nullable(z.string()),
    latency_ms: z.nullable(z.number()),
  }),
  'NotificationAttemptRead',
);

export const NotificationRead = named(
  z.object({
    id: z.string(),
    tenant_id: z.string(),
    channel: NotificationChannel,
    recipient: z.string(),
    subject: z.nullable(z.string()),
    body: z.string(),
    metadata_json: z.string(),
    status: NotificationStatus,
    policy_reasons: z.array(z.string()),
    idempotency_key: z.string(),
    attempts: z.array(NotificationAttemptRead),
    review_item_id: z.nullable(z.string()),
    created_by: z.nullable(z.string()),
    created_at: DateTime,
    updated_at: DateTime,
    queued_at: z.nullable(DateTime),
    delivered_at: z.nullable(DateTime),
  }),
  'NotificationRead',
);

export const NotificationList = named(listOf(NotificationRead), 'NotificationList');

export const ReviewItemRead = named(
  z.object({
    id: z.string(),
    tenant_id: z.string(),
    /** Null on a workflow_action item. */
    notification_id: z.nullable(z.string()),
    /** The channel of the notification (or of a failed notify action); null for a task action. */
    channel: z.nullable(NotificationChannel),
    reason: z.enum([
      'gated',
      'permanent_failure',
      'dead_lettered',
      'policy_rejected',
      'invalid_action',
      'action_failed',
      'check_failed',
    ]),
    detail: z.string(),
    status: ReviewItemStatus,
    decision: z.nullable(z.enum(['retry', 'discard'])),
    note: z.nullable(z.string()),
    decided_by: z.nullable(z.string()),
    decided_at: z.nullable(DateTime),
    created_at: DateTime,
    updated_at: DateTime,
    kind: ReviewItemKind,
    /**
     * The job held: the notification id, `<rule_id>:<event_id>:<action_index>` of a rule action,
     * or `<connection_id>:<issue_code>` of an integration issue.
     */
    subject_id: z.string(),
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

/** One in-app notification in its recipient's inbox (docs/api.md section 7.1). */
export const InboxItemRead = named(
  z.object({
    notification_id: z.string(),
    subject: z.nullable(z.string()),
    body: z.string(),
    category: NotificationCategory,
    priority: NotificationPriority,
    created_at: DateTime,
    /** Null while unread. */
    read_at: z.nullable(DateTime),
  }),
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
