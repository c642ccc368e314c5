import type * as z from 'zod/mini';
import type { Page, PageRequest } from '#shared/kernel/page';
import type { ExceptionListQuery } from '#shared/api/schemas/exceptions';
import type { BusinessExceptionRead } from '#shared/api/schemas/responses';
import type { AuditEvent } from '#shared/domain/audit';
import type { OutboxEvent } from '#shared/domain/outbox';
import type { Timer } from '#shared/domain/timers/ports';

/** The port of business exceptions (docs/api.md section 6) and the records it carries. */

export type BusinessException = z.output<typeof BusinessExceptionRead>;
export type ExceptionStatus = BusinessException['status'];
export type ExceptionFilter = Omit<z.output<typeof ExceptionListQuery>, 'limit' | 'cursor'>;

/**
 * The exception as stored: the record and what its escalation keeps beside it for the code (the
 * policy it is under even when no level is pending, the repeat round, when a pending
 * acknowledgement times out). A write of a plain record leaves them null.
 */
export type StoredException = BusinessException & {
  escalation_policy_id?: string | null;
  escalation_round?: number | null;
  ack_timeout_at?: string | null;
};

/** The timers a change arms and cancels in its own transaction (by id; a put replaces one of the same id). */
export interface TimerChanges {
  arm?: Timer[];
  cancel?: string[];
}

/** Every write carries its audit event and the outbox event workflow rules act on (section 9.1). */
export interface ExceptionStore {
  create(
    exception: StoredException,
    audit: AuditEvent,
    outbox: OutboxEvent,
    timer?: Timer | null,
  ): Promise<void>;
  /**
   * `create` for an exception whose id is derived from what it reports (a reconciliation
   * mismatch): false, with nothing written, when an exception of that id exists already.
   */
  createOnce(
    exception: StoredException,
    audit: AuditEvent,
    outbox: OutboxEvent,
    timer?: Timer | null,
  ): Promise<boolean>;
  get(tenantId: string, id: string): Promise<BusinessException | undefined>;
  /** `get`, with what the escalation keeps beside the record. */
  getStored(tenantId: string, id: string): Promise<StoredException | undefined>;
  list(tenantId: string, filter: ExceptionFilter, page: PageRequest): Promise<Page<BusinessException>>;
  /**
   * Writes `next` only if the stored status is still `expectedStatus` (a conditional write):
   * of two racing changes exactly one wins. False when the condition failed.
   */
  transition(
    next: StoredException,
    expectedStatus: ExceptionStatus,
    audit: AuditEvent,
    outbox: OutboxEvent,
    timers?: TimerChanges,
  ): Promise<boolean>;
}
