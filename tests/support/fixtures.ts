import type { RecordedEventType } from '#shared/kernel/event-types';
import type { AuditEvent } from '#shared/domain/audit';
import { auditEvent } from '#shared/domain/audit';
import type { BusinessException } from '#shared/domain/exceptions/ports';
import { createException } from '#shared/domain/exceptions/use-cases';
import type { OutboxEvent } from '#shared/domain/outbox';
import type { ExceptionStore } from '#shared/domain/exceptions/ports';
import type { TaskStore } from '#shared/domain/tasks/ports';
import type { Notification } from '#shared/domain/notifications/ports';
import { workflowEventRecorded } from '#shared/domain/workflows/events';
import type { Login, Membership, Session, Tenant } from '#shared/domain/identity/ports';
import { type Clock, newId, systemClock } from '#shared/kernel/ids';
import type { Principal, Role } from '#shared/kernel/policy';

/** Builders for records the connected tests hand to the stores. */

export const principal = (
  userId: string,
  memberships: Principal['memberships'] = {},
  admin = false,
): Principal => ({
  user_id: userId,
  token_id: `tok-${userId}`,
  email: `${userId}@example.test`,
  display_name: userId,
  platform_roles: admin ? ['platform_admin'] : [],
  memberships,
});

export const audit = (
  tenantId: string,
  entityType = 'thing',
  entityId = newId(),
  clock: Clock = systemClock,
): AuditEvent =>
  auditEvent(clock, {
    tenant_id: tenantId,
    event_type: `${entityType}.tested`,
    actor_id: 'tester',
    entity_type: entityType,
    entity_id: entityId,
    summary: 'test',
  });

/** The outbox event a change of `entity` writes for workflow rules (docs/api.md section 9.1). */
export const recorded = (eventType: string, entity: { tenant_id: string; id: string }) =>
  // Tests also record types no producer writes (the matcher must ignore them), hence the cast.
  workflowEventRecorded(systemClock, eventType as RecordedEventType, entity);

export const login = (email = `${newId()}@example.test`, admin = false): Login => ({
  user: {
    id: newId(),
    email,
    display_name: email.split('@')[0] ?? 'u',
    created_at: new Date().toISOString(),
    platform_roles: admin ? ['platform_admin'] : [],
  },
  password_hash: 'scrypt$16384$8$1$c2FsdA$aGFzaA',
});

export const tenant = (id = `t-${newId().slice(-12)}`): Tenant => ({
  id,
  name: `Tenant ${id}`,
  timezone: 'UTC',
  status: 'active',
  created_at: new Date().toISOString(),
});

export const membership = (t: Tenant, l: Login, role: Role): Membership => ({
  tenant_id: t.id,
  tenant_name: t.name,
  tenant_created_at: t.created_at,
  user_id: l.user.id,
  email: l.user.email,
  display_name: l.user.display_name,
  role,
  created_at: new Date().toISOString(),
  updated_at: null,
});

export const session = (userId: string, overrides: Partial<Session> = {}): Session => {
  const now = Date.now();
  return {
    token_id: newId(),
    user_id: userId,
    user_email: `${userId}@example.test`,
    user_display_name: userId,
    expires_at: new Date(now + 3600_000).toISOString(),
    created_at: new Date(now).toISOString(),
    last_used_at: null,
    revoked_at: null,
    ...overrides,
  };
};

export const exceptionRecord = (
  tenantId: string,
  overrides: Partial<BusinessException> = {},
): BusinessException => {
  const now = new Date().toISOString();
  return {
    id: newId(),
    tenant_id: tenantId,
    exception_type: 'invoice.overdue',
    severity: 'warning',
    status: 'open',
    subject_type: 'invoice',
    subject_id: 'INV-1',
    title: 'Overdue',
    summary: 'Invoice overdue',
    impact_json: '{}',
    evidence_json: '{}',
    observation_ids: [],
    detected_at: now,
    created_at: now,
    updated_at: now,
    resolved_at: null,
    escalation: null,
    ...overrides,
  };
};

/** Follows next_cursor to the end. */
export async function drain<T>(
  fetch: (cursor?: string) => Promise<{ items: T[]; next_cursor: string | null }>,
): Promise<T[]> {
  const all: T[] = [];
  let cursor: string | undefined;
  for (let i = 0; i < 1000; i++) {
    const page = await fetch(cursor);
    all.push(...page.items);
    if (!page.next_cursor) return all;
    cursor = page.next_cursor;
  }
  throw new Error('pagination did not end');
}

/** A notification held `digesting` in digest `digest-1` of key `stock` (the holds' unit tests). */
export const heldNotification = (over: Partial<Notification> = {}): Notification => ({
  id: 'n-1',
  tenant_id: 't-1',
  channel: 'sms',
  recipient: '+4915112345678',
  recipient_user_id: null,
  category: 'tasks',
  priority: 'normal',
  subject: null,
  body: 'first',
  metadata_json: '{}',
  status: 'digesting',
  policy_reasons: [],
  idempotency_key: 'notification:t-1:n-1',
  attempts: [],
  review_item_id: null,
  created_by: 'op-1',
  created_at: '2031-03-02T09:00:00.000Z',
  updated_at: '2031-03-02T09:00:00.000Z',
  queued_at: null,
  delivered_at: null,
  deliver_after: null,
  dedupe_key: null,
  duplicate_of: null,
  digest_key: 'stock',
  digest_id: 'digest-1',
  ...over,
});

/**
 * A critical (or warning) exception made through its use case, and the outbox event its store
 * wrote with it: the event a workflow rule fires on, handed to the runner as the queue would.
 */
export async function exceptionEvent(
  exceptions: ExceptionStore,
  actor: Principal,
  tenantId: string,
  title = 'Short payment',
  severity: 'critical' | 'warning' = 'critical',
): Promise<{ event: OutboxEvent; id: string }> {
  let event: OutboxEvent | undefined;
  const recording: ExceptionStore = {
    ...exceptions,
    create: async (...args) => {
      event = args[2];
      return exceptions.create(...args);
    },
  };
  const e = await createException({ exceptions: recording, clock: systemClock }, actor, tenantId, {
    exception_type: 'payment.amount_mismatch',
    subject_type: 'invoice',
    subject_id: 'INV-1',
    title,
    summary: 'Short by 40.00',
    severity,
  });
  return { event: event!, id: e.id };
}

/** Every task of one exception (the ones a rule's create_task made for it). */
export const tasksOfException = (tasks: TaskStore, tenantId: string, exceptionId: string) =>
  drain((cursor) =>
    tasks.list(tenantId, { subject_type: 'exception', subject_id: exceptionId }, { limit: 50, cursor }),
  );
