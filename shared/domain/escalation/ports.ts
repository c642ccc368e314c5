import type * as z from 'zod/mini';
import type { Page, PageRequest } from '#shared/kernel/page';
import type { Role } from '#shared/kernel/policy';
import type { EscalationPolicyRead, ExceptionEscalationRead } from '#shared/api/schemas/escalation-responses';
import type { AuditEvent } from '#shared/domain/audit';
import type { BusinessException, StoredException } from '#shared/domain/exceptions/ports';
import type { DraftHolds, Notification } from '#shared/domain/notifications/ports';
import type { OutboxEvent } from '#shared/domain/outbox';
import type { Timer } from '#shared/domain/timers/ports';

/** The ports of escalation policies (docs/api.md, "Escalation policies") and the records they carry. */

export type EscalationPolicy = z.output<typeof EscalationPolicyRead>;
export type EscalationLevel = EscalationPolicy['levels'][number];
export type NotifyTarget = EscalationLevel['notify'][number];
/** What an exception shows of its escalation: the level that fires next, and when. */
export type ExceptionEscalation = z.output<typeof ExceptionEscalationRead>;

export interface EscalationPolicyStore {
  create(policy: EscalationPolicy, audit: AuditEvent): Promise<void>;
  get(tenantId: string, id: string): Promise<EscalationPolicy | undefined>;
  list(tenantId: string, page: PageRequest): Promise<Page<EscalationPolicy>>;
  /** Every policy of the tenant (a tenant has few): an exception's create picks one of them. */
  all(tenantId: string): Promise<EscalationPolicy[]>;
  /** Writes `next` only if the stored version is still `expectedVersion`; false when it is not. */
  update(next: EscalationPolicy, expectedVersion: number, audit: AuditEvent): Promise<boolean>;
  /** Deletes the policy with its audit event; false when there was none. */
  remove(tenantId: string, id: string, audit: AuditEvent): Promise<boolean>;
  /**
   * Cancels the pending `escalation` and `ack_timeout` timers of the policy, each with the
   * escalation its exception shows: after a disable or a delete. Returns how many it cancelled.
   */
  cancelTimers(tenantId: string, policyId: string): Promise<number>;
}

/** The tenant's members as notify targets name them (docs/api.md, "Escalation policies"). */
export interface MemberDirectory {
  isMember(tenantId: string, userId: string): Promise<boolean>;
  /** The user ids of every member with `role`. */
  withRole(tenantId: string, role: Role): Promise<string[]>;
}

/** A drafted notification as the normal path leaves it: the record, its audit event, its outbox event when queued. */
export interface NotificationDraft {
  notification: Notification;
  audit: AuditEvent;
  outbox: OutboxEvent | null;
  /** A member's quiet hours: the release timer (escalation drafts carry no dedupe key). */
  holds?: DraftHolds | undefined;
}

export interface LevelFiring {
  exception: Pick<BusinessException, 'tenant_id' | 'id'>;
  /** The escalation the exception must still show (and status `open`) for the firing to apply. */
  expected: ExceptionEscalation;
  next: ExceptionEscalation | null;
  round: number;
  drafts: NotificationDraft[];
  audit: AuditEvent;
  event: OutboxEvent;
  timer: Timer | null;
}

export interface Reopening {
  /** The exception as it becomes: open, under the policy's level 1 again. */
  next: StoredException;
  /** The pending timeout the exception must still show (and status `acknowledged`). */
  ackTimeoutAt: string;
  audit: AuditEvent;
  event: OutboxEvent;
  timer: Timer;
}

/** The writes of escalation, each one transaction conditional on the exception's state. */
export interface EscalationStore {
  /** `stale` when the exception is no longer open under `expected`. */
  fireLevel(firing: LevelFiring): Promise<'written' | 'stale'>;
  /** `stale` when the exception is no longer acknowledged with that pending timeout. */
  reopen(reopening: Reopening): Promise<'written' | 'stale'>;
  /** Clears the escalation the exception shows if it is still `expected` (its policy is gone or disabled). */
  stop(exception: Pick<BusinessException, 'tenant_id' | 'id'>, expected: ExceptionEscalation): Promise<void>;
}
