import { describe, expect, it } from 'vitest';
import type { PreviewData, PreviewReader } from '#shared/domain/previews/ports';
import {
  previewActionExecution,
  previewActionPlan,
  previewApprovalGateway,
  previewEscalation,
  previewIntakePipeline,
} from '#shared/domain/previews/use-cases';
import { data, doc, exception, NOW, task, TENANT } from './records';

/**
 * The previews that plan, run and gate actions, through their use cases: each reads exactly its
 * sources, fills the tenant into its paths and names itself in `api.self`.
 */

const reads: string[] = [];
const readerOf = (d: PreviewData): PreviewReader => ({
  exceptions: async () => (reads.push('exceptions'), structuredClone(d.exceptions)),
  documents: async () => (reads.push('documents'), structuredClone(d.documents)),
  tasks: async () => (reads.push('tasks'), structuredClone(d.tasks)),
  notifications: async () => (reads.push('notifications'), structuredClone(d.notifications)),
});
const tenant = data({
  exceptions: [exception({ id: 'e1', severity: 'critical' })],
  tasks: [task({ id: 't1' })],
  documents: [doc({ id: 'inv-1' })],
});
const deps = { reader: readerOf(tenant), clock: { now: () => NOW } };
const subject = { subject_type: 'exception', subject_id: 'e1' };
const read = async <T>(run: () => Promise<T>) => {
  reads.length = 0;
  const result = await run();
  return { result, sources: [...reads].sort() };
};

describe('use cases of the action previews', () => {
  it('action plan: exceptions and tasks read, tenant paths, its own self link', async () => {
    const { result, sources } = await read(() =>
      previewActionPlan(deps, TENANT, {
        plan_kind: 'exception_resolution',
        role: 'operator',
        include_resolved: false,
        limit: 20,
        ...subject,
      }),
    );
    expect(sources).toEqual(['exceptions', 'tasks']);
    expect(result.api).toEqual({ self: `POST /tenants/${TENANT}/previews/action-plan` });
    expect(result.steps[0]!.api).toBe(`/tenants/${TENANT}/exceptions/e1/status`);
    expect(result).toMatchObject({ subject_type: 'exception', subject_id: 'e1', side_effects: 'none' });
    expect(result.evidence).toEqual([
      { source: 'exceptions', records_read: 1 },
      { source: 'tasks', records_read: 1 },
      { exceptions_in_scope: 1, planned: 1 },
    ]);
  });

  it('action execution and approval gateway: exceptions, tasks and documents read', async () => {
    const execution = await read(() =>
      previewActionExecution(deps, TENANT, {
        execution_kind: 'action_plan_execution_preview',
        execution_mode: 'dry_run',
        role: 'operator',
        include_preflight: false,
        include_rollback_plan: false,
        ...subject,
      }),
    );
    expect(execution.sources).toEqual(['documents', 'exceptions', 'tasks']);
    expect(execution.result.api).toEqual({ self: `POST /tenants/${TENANT}/previews/action-execution` });
    expect(execution.result.execution_plan[0]!.api).toBe(`/tenants/${TENANT}/exceptions/e1/status`);
    const gateway = await read(() =>
      previewApprovalGateway(deps, TENANT, {
        approval_kind: 'execution_approval_gateway',
        approver_role: 'owner',
        requester_role: 'operator',
        role: 'operator',
        include_dual_control: true,
        ...subject,
      }),
    );
    expect(gateway.sources).toEqual(['documents', 'exceptions', 'tasks']);
    expect(gateway.result.api).toEqual({ self: `POST /tenants/${TENANT}/previews/approval-gateway` });
    expect(gateway.result.commit_unlocks[0]!.commit!.path).toBe(`/tenants/${TENANT}/exceptions/e1/status`);
  });

  it('escalation and intake: only their sources, and nothing of their own in the evidence', async () => {
    const escalation = await read(() =>
      previewEscalation(deps, TENANT, { policy: 'exception_triage', include_resolved: false, limit: 20 }),
    );
    expect(escalation.sources).toEqual(['exceptions']);
    expect(escalation.result.api).toEqual({ self: `POST /tenants/${TENANT}/previews/escalation` });
    expect(escalation.result.evidence).toEqual([{ source: 'exceptions', records_read: 1 }]);
    const intake = await read(() =>
      previewIntakePipeline(deps, TENANT, {
        events: [],
        include_notification_drafts: false,
        role: 'operator',
      }),
    );
    expect(intake.sources).toEqual(['documents']);
    expect(intake.result.api).toEqual({ self: `POST /tenants/${TENANT}/previews/intake-pipeline` });
    expect(intake.result.evidence[0]).toEqual({ source: 'documents', records_read: 1 });
    expect(intake.result.workbench_context.documents_compared).toBe(1);
  });
});
