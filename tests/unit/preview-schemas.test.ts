import { describe, expect, it } from 'vitest';
import type * as core from 'zod/v4/core';
import { parse } from '#shared/api/issues';
import {
  BusinessActionExecutionPreviewCreate,
  BusinessActionPlanPreviewCreate,
  BusinessApprovalGatewayPreviewCreate,
  BusinessBriefingPreviewCreate,
  BusinessDetectionPreviewCreate,
  BusinessEscalationPreviewCreate,
  BusinessIntakePipelinePreviewCreate,
} from '#shared/api/schemas/previews';
import { ValidationError } from '#shared/kernel/errors';

const errorsOf = (schema: core.$ZodType, body: unknown): string[] => {
  try {
    parse(schema, body);
    return [];
  } catch (err) {
    if (!(err instanceof ValidationError)) throw err;
    return err.errors!.map((e) => `${e.path} ${e.code}`);
  }
};

const event = { source: 'bank_feed', event_type: 'payment.received', external_id: 'ch_1', payload: {} };
const events = (n: number) => Array.from({ length: n }, (_, i) => ({ ...event, external_id: `ch_${i}` }));
const steps = (n: number) => Array.from({ length: n }, () => ({ action: 'start_task', task_id: 't' }));

describe('preview requests: the seed defaults (docs/api.md section 9.5)', () => {
  it('an empty body takes every default', () => {
    expect(parse(BusinessBriefingPreviewCreate, {})).toEqual({
      role: 'operator',
      include_resolved: false,
      limit: 20,
    });
    expect(parse(BusinessActionPlanPreviewCreate, {})).toEqual({
      plan_kind: 'exception_resolution',
      role: 'operator',
      include_resolved: false,
      limit: 20,
    });
    expect(parse(BusinessActionExecutionPreviewCreate, {})).toEqual({
      execution_kind: 'action_plan_execution_preview',
      execution_mode: 'dry_run',
      role: 'operator',
      include_preflight: true,
      include_rollback_plan: true,
    });
    expect(parse(BusinessApprovalGatewayPreviewCreate, {})).toEqual({
      approval_kind: 'execution_approval_gateway',
      approver_role: 'owner',
      requester_role: 'operator',
      role: 'operator',
      include_dual_control: true,
    });
    expect(parse(BusinessDetectionPreviewCreate, {})).toEqual({
      rule_set: 'payment_reconciliation',
      limit: 50,
    });
    expect(parse(BusinessEscalationPreviewCreate, {})).toEqual({
      policy: 'exception_triage',
      include_resolved: false,
      limit: 20,
    });
    expect(parse(BusinessIntakePipelinePreviewCreate, { events: [event] })).toEqual({
      events: [event],
      include_notification_drafts: true,
      role: 'operator',
    });
  });

  it('accepts every bound at its edge', () => {
    expect(
      errorsOf(BusinessBriefingPreviewCreate, { limit: 50, subject_type: 'ab', subject_id: 'x' }),
    ).toEqual([]);
    expect(errorsOf(BusinessDetectionPreviewCreate, { limit: 100 })).toEqual([]);
    expect(errorsOf(BusinessActionExecutionPreviewCreate, { action_steps: steps(10) })).toEqual([]);
    expect(errorsOf(BusinessApprovalGatewayPreviewCreate, { execution_plan: steps(10) })).toEqual([]);
    expect(errorsOf(BusinessIntakePipelinePreviewCreate, { events: events(8) })).toEqual([]);
    expect(errorsOf(BusinessEscalationPreviewCreate, { subject_type: null, subject_id: null })).toEqual([]);
  });
});

describe('preview requests: every bound of the seed is 422 with its path', () => {
  it.each([
    ['limit too_small', { limit: 0 }, BusinessBriefingPreviewCreate],
    ['limit too_big', { limit: 51 }, BusinessBriefingPreviewCreate],
    ['limit invalid_type', { limit: 2.5 }, BusinessBriefingPreviewCreate],
    ['role invalid_value', { role: 'boss' }, BusinessBriefingPreviewCreate],
    ['include_resolved invalid_type', { include_resolved: 'yes' }, BusinessBriefingPreviewCreate],
    ['subject_type too_small', { subject_type: 'A' }, BusinessBriefingPreviewCreate],
    ['subject_type too_big', { subject_type: 'x'.repeat(65) }, BusinessBriefingPreviewCreate],
    ['subject_type invalid_format', { subject_type: 'Invoice' }, BusinessBriefingPreviewCreate],
    ['subject_id too_small', { subject_id: '' }, BusinessBriefingPreviewCreate],
    ['subject_id too_big', { subject_id: 'x'.repeat(129) }, BusinessBriefingPreviewCreate],
    ['tenant_id unrecognized_key', { tenant_id: 'other' }, BusinessBriefingPreviewCreate],
    ['limit too_big', { limit: 51 }, BusinessActionPlanPreviewCreate],
    ['plan_kind invalid_value', { plan_kind: 'other' }, BusinessActionPlanPreviewCreate],
    ['limit too_small', { limit: 0 }, BusinessEscalationPreviewCreate],
    ['policy invalid_value', { policy: 'other' }, BusinessEscalationPreviewCreate],
    ['limit too_big', { limit: 101 }, BusinessDetectionPreviewCreate],
    ['limit too_small', { limit: 0 }, BusinessDetectionPreviewCreate],
    ['rule_set invalid_value', { rule_set: 'other' }, BusinessDetectionPreviewCreate],
    ['action_steps too_big', { action_steps: steps(11) }, BusinessActionExecutionPreviewCreate],
    ['action_steps.0 invalid_type', { action_steps: ['x'] }, BusinessActionExecutionPreviewCreate],
    ['execution_mode invalid_value', { execution_mode: 'run' }, BusinessActionExecutionPreviewCreate],
    ['execution_kind invalid_value', { execution_kind: 'other' }, BusinessActionExecutionPreviewCreate],
    ['execution_plan too_big', { execution_plan: steps(11) }, BusinessApprovalGatewayPreviewCreate],
    ['approver_role invalid_value', { approver_role: 'boss' }, BusinessApprovalGatewayPreviewCreate],
    ['requester_role invalid_value', { requester_role: 'boss' }, BusinessApprovalGatewayPreviewCreate],
    ['approval_kind invalid_value', { approval_kind: 'other' }, BusinessApprovalGatewayPreviewCreate],
    ['events invalid_type', {}, BusinessIntakePipelinePreviewCreate],
    ['events too_small', { events: [] }, BusinessIntakePipelinePreviewCreate],
    ['events too_big', { events: events(9) }, BusinessIntakePipelinePreviewCreate],
    [
      'events.0.source invalid_value',
      { events: [{ ...event, source: 'stripe' }] },
      BusinessIntakePipelinePreviewCreate,
    ],
    [
      'events.0.external_id too_small',
      { events: [{ ...event, external_id: '' }] },
      BusinessIntakePipelinePreviewCreate,
    ],
    [
      'events.0.payload invalid_type',
      { events: [{ ...event, payload: [] }] },
      BusinessIntakePipelinePreviewCreate,
    ],
    [
      'events.0.occurred_at invalid_format',
      { events: [{ ...event, occurred_at: 'today' }] },
      BusinessIntakePipelinePreviewCreate,
    ],
    [
      'events.0.raw unrecognized_key',
      { events: [{ ...event, raw: 'x' }] },
      BusinessIntakePipelinePreviewCreate,
    ],
  ])('%s for %j', (expected, body, schema) => {
    expect(errorsOf(schema as core.$ZodType, body)).toContain(expected);
  });
});
