import * as z from 'zod/mini';
import { Role } from './auth';
import { describe, listOf, named } from './common';
import { DocumentStatus, DocumentType, Money } from './documents';
import { TaskStatus } from './tasks';
import { Condition, CONDITION_OPS, WorkflowAction, WorkflowEventType } from './workflows';
import { ExceptionSeverity, ExceptionStatus } from './exceptions';
import { NotificationChannel, NotificationStatus, ReviewItemKind, ReviewItemStatus } from './notifications';

/**
 * The response records. Only the OpenAPI document (and the types of the domain) use them: no
 * handler validates its own output, so keeping them apart keeps them out of the Lambda bundles
 * (zod's schema constructors are not side-effect free, so a module's every schema is bundled).
 */

export const DateTime = describe(z.iso.datetime({ offset: true }), 'ISO 8601 timestamp');

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

export const DocumentLineRead = named(
  z.object({
    description: z.string(),
    quantity: z.string(),
    unit_amount: Money,
    /** quantity x unit_amount, rounded half up to the cent. */
    total: Money,
  }),
  'DocumentLineRead',
);

export const DocumentRead = named(
  z.object({
    id: z.string(),
    tenant_id: z.string(),
    document_type: DocumentType,
    number: z.string(),
    counterparty: z.string(),
    currency: z.string(),
    amount: Money,
    issued_on: z.iso.date(),
    due_on: z.nullable(z.iso.date()),
    external_refs: z.record(z.string(), z.string()),
    lines: z.array(DocumentLineRead),
    applies_to: z.nullable(z.string()),
    status: DocumentStatus,
    created_at: DateTime,
    updated_at: DateTime,
  }),
  'DocumentRead',
);

export const DocumentList = named(listOf(DocumentRead), 'DocumentList');

export const TaskRead = named(
  z.object({
    id: z.string(),
    tenant_id: z.string(),
    title: z.string(),
    description: z.nullable(z.string()),
    assignee_role: z.nullable(Role),
    assignee_id: z.nullable(z.string()),
    due_at: z.nullable(DateTime),
    subject_type: z.nullable(z.string()),
    subject_id: z.nullable(z.string()),
    status: TaskStatus,
    /** The workflow rule that created the task; null for a task a person created. */
    source_rule_id: z.nullable(z.string()),
    created_at: DateTime,
    updated_at: DateTime,
    completed_at: z.nullable(DateTime),
  }),
  'TaskRead',
);

export const TaskList = named(listOf(TaskRead), 'TaskList');

export const WorkflowRuleRead = named(
  z.object({
    id: z.string(),
    tenant_id: z.string(),
    name: z.string(),
    trigger: z.object({ event_type: WorkflowEventType }),
    conditions: z.array(Condition),
    actions: z.array(WorkflowAction),
    enabled: z.boolean(),
    /** Starts at 1 and grows with every change; a PATCH names the version it was made against. */
    version: z.int(),
    created_at: DateTime,
    updated_at: DateTime,
  }),
  'WorkflowRuleRead',
);

export const WorkflowRuleList = named(listOf(WorkflowRuleRead), 'WorkflowRuleList');

const PlannedMissing = z.array(z.string());

export const WorkflowPlannedTask = named(
  z.object({
    type: z.literal('create_task'),
    title: z.string(),
    assignee_role: z.nullable(Role),
    due_at: z.nullable(DateTime),
    subject_type: z.nullable(z.string()),
    subject_id: z.nullable(z.string()),
    /** Fields of the entity that a placeholder named but that had no value (filled with nothing). */
    missing_fields: PlannedMissing,
  }),
  'WorkflowPlannedTask',
);

export const WorkflowPlannedNotification = named(
  z.object({
    type: z.literal('notify'),
    channel: NotificationChannel,
    recipient: z.string(),
    subject: z.nullable(z.string()),
    body: z.string(),
    missing_fields: PlannedMissing,
  }),
  'WorkflowPlannedNotification',
);

export const WorkflowRuleTestRead = named(
  z.object({
    matched: z.boolean(),
    /** Whether the event has the rule's trigger type (matched needs it and every condition). */
    event_type_matched: z.boolean(),
    conditions: z.array(
      z.object({
        field: z.string(),
        op: z.enum(CONDITION_OPS),
        value: z.unknown(),
        actual: z.unknown(),
        passed: z.boolean(),
      }),
    ),
    /** What the rule would do, placeholders filled; empty when it did not match. */
    actions: z.array(z.discriminatedUnion('type', [WorkflowPlannedTask, WorkflowPlannedNotification])),
    side_effects: z.literal('none'),
  }),
  'WorkflowRuleTestRead',
);

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
    /** The job held: the notification id, or `<rule_id>:<event_id>:<action_index>` of a rule action. */
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
