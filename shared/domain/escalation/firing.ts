import { PolicyRejectedError } from '#shared/kernel/errors';
import { type Clock, derivedId } from '#shared/kernel/ids';
import type { Principal } from '#shared/kernel/policy';
import { auditEvent } from '#shared/domain/audit';
import type { BusinessException, StoredException } from '#shared/domain/exceptions/ports';
import type { Channel } from '#shared/domain/notifications/ports';
import { createNotification, type NotificationDeps } from '#shared/domain/notifications/use-cases';
import type { OccurrenceResult, Timer } from '#shared/domain/timers/ports';
import { workflowEventRecorded } from '#shared/domain/workflows/events';
import { escalationAt, escalationTimer } from './attach';
import type {
  EscalationPolicy,
  EscalationPolicyStore,
  EscalationStore,
  MemberDirectory,
  NotificationDraft,
  NotifyTarget,
} from './ports';

/**
 * The internal worker's side of escalation (docs/api.md, "Escalation policies"): an `escalation`
 * timer fires a level, an `ack_timeout` timer re-opens an exception acknowledged too long ago.
 * Each re-reads the exception and the policy as they stand, and writes everything it does (the
 * notifications, the audit event, the next level's timer) in ONE transaction conditional on the
 * exception still being in the state the timer was armed for: a firing racing an acknowledgement
 * either commits before it or writes nothing, so no notification follows a committed
 * acknowledgement, and a redelivered firing finds the state moved on and does nothing.
 */

/** The most notifications one level sends: each is 3 items of the level's one transaction (of 100). */
export const MAX_NOTIFIED = 30;

export interface EscalationFireDeps {
  exceptions: { getStored(tenantId: string, id: string): Promise<StoredException | undefined> };
  policies: Pick<EscalationPolicyStore, 'get'>;
  members: Pick<MemberDirectory, 'withRole'>;
  /** The normal notification path: its store's `create` is collected into the level's transaction. */
  notifications: NotificationDeps;
  escalations: EscalationStore;
  clock: Clock;
}

/** The actor a level's notifications are drafted under (their `created_by`). */
const policyActor = (policy: EscalationPolicy): Principal => ({
  user_id: `escalation_policy:${policy.id}`,
  token_id: '',
  email: '',
  display_name: policy.name,
  platform_roles: [],
  memberships: {},
});

/** An address, or a member whose address the notification path finds (notifications to members). */
type Recipient = { channel: Channel; recipient: string } | { channel: Channel; recipient_user_id: string };

/** Every recipient of a level's targets, a role resolved to its members, each pair once. */
export async function recipientsOf(
  deps: Pick<EscalationFireDeps, 'members'>,
  tenantId: string,
  targets: readonly NotifyTarget[],
): Promise<Recipient[]> {
  const out = new Map<string, Recipient>();
  const add = (r: Recipient) =>
    out.set(`${r.channel}\u0000${'recipient' in r ? r.recipient : `user:${r.recipient_user_id}`}`, r);
  for (const t of targets) {
    if (t.recipient) add({ channel: t.channel, recipient: t.recipient });
    const users = t.recipient_user_id
      ? [t.recipient_user_id]
      : t.role
        ? await deps.members.withRole(tenantId, t.role)
        : [];
    for (const userId of users) add({ channel: t.channel, recipient_user_id: userId });
  }
  return [...out.values()];
}

/** The level after `level` of `round`, or null when the last level of the last round fired. */
export function nextStep(policy: EscalationPolicy, level: number, round: number) {
  if (level < policy.levels.length) return { level: level + 1, round };
  if (round < policy.repeat) return { level: 1, round: round + 1 };
  return null;
}

/** Drafts one notification through the normal path, keeping its writes for the level's transaction. */
async function draft(
  deps: EscalationFireDeps,
  policy: EscalationPolicy,
  e: BusinessException,
  r: Recipient,
  id: string,
  level: number,
): Promise<NotificationDraft> {
  const drafts: NotificationDraft[] = [];
  const collecting: NotificationDeps = {
    ...deps.notifications,
    notifications: {
      ...deps.notifications.notifications,
      create: async (notification, audit, outbox, holds) => {
        drafts.push({ notification, audit, outbox, holds });
        return { ok: true };
      },
    },
  };
  try {
    await createNotification(
      collecting,
      policyActor(policy),
      e.tenant_id,
      {
        ...r,
        category: 'exceptions',
        priority: e.severity === 'critical' ? 'critical' : 'normal',
        subject: `Escalation level ${level}: ${e.title}`,
        body: `A ${e.severity} exception is still open: ${e.title} (${e.exception_type}, ${e.subject_type} ${e.subject_id}), detected ${e.detected_at}.`,
        metadata: { exception_id: e.id, escalation_policy_id: policy.id, level },
      },
      id,
    );
  } catch (err) {
    // A refused draft is kept as `blocked`, as for any other sender; the level goes on.
    if (!(err instanceof PolicyRejectedError)) throw err;
  }
  return drafts[0]!;
}

/** Fires an `escalation` timer: one level's notifications, its audit event and the next level's timer. */
export async function fireEscalation(deps: EscalationFireDeps, timer: Timer): Promise<OccurrenceResult> {
  const e = await deps.exceptions.getStored(timer.tenant_id, timer.subject_id);
  const expected = e?.escalation;
  if (
    !e ||
    e.status !== 'open' ||
    !expected ||
    expected.policy_id !== timer.policy_id ||
    expected.level !== timer.level ||
    expected.next_at !== timer.due_at
  )
    return 'stale';
  const policy = await deps.policies.get(e.tenant_id, expected.policy_id);
  const round = e.escalation_round ?? 0;
  // The policy as it stands now: a level it no longer has ends the round.
  const step =
    policy && expected.level > policy.levels.length
      ? nextStep(policy, policy.levels.length, round)
      : {
          level: expected.level,
          round,
        };
  if (!policy?.enabled || !step) {
    await deps.escalations.stop(e, expected);
    return 'stale';
  }
  const now = deps.clock.now();
  const recipients = await recipientsOf(deps, e.tenant_id, policy.levels[step.level - 1]!.notify);
  const drafts = await Promise.all(
    recipients
      .slice(0, MAX_NOTIFIED)
      .map((r, i) =>
        draft(
          deps,
          policy,
          e,
          r,
          derivedId(timer.due_at, 'exception.escalated', e.tenant_id, e.id, timer.due_at, String(i)),
          step.level,
        ),
      ),
  );
  const after = nextStep(policy, step.level, step.round);
  const next = after ? escalationAt(policy, after.level, now) : null;
  const notified = drafts.map((d) => d.notification.id);
  const record = { ...stripped(e), escalation: next };
  const audit = {
    ...auditEvent(deps.clock, {
      tenant_id: e.tenant_id,
      event_type: 'exception.escalated',
      actor_id: null,
      entity_type: 'exception',
      entity_id: e.id,
      summary: `level ${step.level} of ${policy.name}: ${notified.length} notified`,
      metadata: {
        policy_id: policy.id,
        level: step.level,
        notified,
        ...(step.round > 0 && { round: step.round }),
        ...(recipients.length > MAX_NOTIFIED && { not_notified: recipients.length - MAX_NOTIFIED }),
      },
    }),
    id: derivedId(timer.due_at, 'exception.escalated', e.tenant_id, e.id, timer.due_at),
  };
  return deps.escalations.fireLevel({
    exception: e,
    expected,
    next,
    round: after?.round ?? step.round,
    drafts,
    audit,
    event: workflowEventRecorded(deps.clock, 'exception.escalated', record),
    timer: next && escalationTimer(e, next),
  });
}

/** The record as the API reads it, without what the escalation keeps beside it. */
const stripped = (e: StoredException): BusinessException => {
  const { escalation_policy_id: _p, escalation_round: _r, ack_timeout_at: _a, ...record } = e;
  return record;
};

/**
 * Fires an `ack_timeout` timer: an exception still acknowledged since the acknowledgement that
 * armed it returns to `open` (a system transition the API does not offer) and escalates again
 * from level 1, as the policy stands now.
 */
export async function fireAckTimeout(deps: EscalationFireDeps, timer: Timer): Promise<OccurrenceResult> {
  const e = await deps.exceptions.getStored(timer.tenant_id, timer.subject_id);
  if (!e || e.status !== 'acknowledged' || e.ack_timeout_at !== timer.due_at || !timer.policy_id)
    return 'stale';
  const policy = await deps.policies.get(e.tenant_id, timer.policy_id);
  if (!policy?.enabled) return 'stale';
  const at = deps.clock.now();
  const escalation = escalationAt(policy, 1, at);
  const record: BusinessException = {
    ...stripped(e),
    status: 'open',
    updated_at: at.toISOString(),
    escalation,
  };
  return deps.escalations.reopen({
    next: { ...record, escalation_policy_id: policy.id, escalation_round: 0, ack_timeout_at: null },
    ackTimeoutAt: timer.due_at,
    audit: {
      ...auditEvent(deps.clock, {
        tenant_id: e.tenant_id,
        event_type: 'exception.ack_timed_out',
        actor_id: null,
        entity_type: 'exception',
        entity_id: e.id,
        summary: 'acknowledged -> open',
        metadata: { from: 'acknowledged', to: 'open', policy_id: policy.id, ack_timeout_at: timer.due_at },
      }),
      id: derivedId(timer.due_at, 'exception.ack_timed_out', e.tenant_id, e.id, timer.due_at),
    },
    event: workflowEventRecorded(deps.clock, 'exception.ack_timed_out', record),
    timer: escalationTimer(e, escalation),
  });
}
