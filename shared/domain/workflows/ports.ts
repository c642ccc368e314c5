import type * as z from 'zod/mini';
import type { Page, PageRequest } from '#shared/kernel/page';
import type { WorkflowRuleRead } from '#shared/api/schemas/responses';
import type { AuditEvent } from '#shared/domain/audit';

/** The port of workflow rules (docs/api.md section 9.3) and the records it carries. */

export type WorkflowRule = z.output<typeof WorkflowRuleRead>;

export interface WorkflowRuleStore {
  create(rule: WorkflowRule, audit: AuditEvent): Promise<void>;
  get(tenantId: string, id: string): Promise<WorkflowRule | undefined>;
  list(tenantId: string, page: PageRequest): Promise<Page<WorkflowRule>>;
  /** Writes `next` only if the stored version is still `expectedVersion`; false otherwise. */
  update(next: WorkflowRule, expectedVersion: number, audit: AuditEvent): Promise<boolean>;
  /** Deletes the rule with its audit event; false when there was no such rule. */
  remove(tenantId: string, id: string, audit: AuditEvent): Promise<boolean>;
}
