import type * as z from 'zod/mini';
import type { Page, PageRequest } from '#shared/kernel/page';
import type { Role } from '#shared/kernel/policy';
import type { EscalationPolicyRead, ExceptionEscalationRead } from '#shared/api/schemas/escalation-responses';
import type { AuditEvent } from '#shared/domain/audit';

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
