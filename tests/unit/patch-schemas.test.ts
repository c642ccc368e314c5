import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { parse } from '#shared/api/issues';
import { EscalationPolicyUpdate } from '#shared/api/schemas/escalation-policies';
import { IntegrationConnectionUpdate } from '#shared/api/schemas/integrations';
import { patchSchema } from '#shared/api/schemas/patch';
import { TaskUpdate } from '#shared/api/schemas/tasks';
import { MemberUpdate, TenantUpdate } from '#shared/api/schemas/tenants';
import { WebhookEndpointUpdate } from '#shared/api/schemas/webhooks';
import { WorkflowRuleUpdate } from '#shared/api/schemas/workflows';
import { ValidationError } from '#shared/kernel/errors';
import type { AnyRecordDeclaration } from '#shared/table/entity';
import { type Editable, editable } from '#shared/table/editable';
import { escalationPolicyEditable, escalationPolicyRecord } from '#shared/table/entities/escalation-policy';
import {
  integrationConnectionEditable,
  integrationConnectionRecord,
} from '#shared/table/entities/integration-connection';
import { memberEditable, memberRecord } from '#shared/table/entities/member';
import { taskEditable, taskRecord } from '#shared/table/entities/task';
import { tenantEditable, tenantRecord } from '#shared/table/entities/tenant';
import { webhookEndpointEditable, webhookEndpointRecord } from '#shared/table/entities/webhook-endpoint';
import { workflowRuleEditable, workflowRuleRecord } from '#shared/table/entities/workflow-rule';

const errorsOf = (schema: z.ZodMiniType, body: unknown): string[] => {
  try {
    parse(schema, body);
    return [];
  } catch (err) {
    if (!(err instanceof ValidationError)) throw err;
    return err.errors!.map((e) => `${e.path} ${e.code}`);
  }
};

interface Case {
  schema: z.ZodMiniObject;
  declaration: Editable;
  record: AnyRecordDeclaration;
  /** A valid value of each field the body may give. */
  valid: Readonly<Record<string, unknown>>;
}

const cases: Record<string, Case> = {
  task: {
    schema: TaskUpdate,
    declaration: taskEditable,
    record: taskRecord,
    valid: {
      title: 'Call the bank',
      description: null,
      assignee_role: 'manager',
      assignee_id: 'u1',
      due_at: '2026-02-01T09:00:00Z',
    },
  },
  tenant: {
    schema: TenantUpdate,
    declaration: tenantEditable,
    record: tenantRecord,
    valid: { name: 'Acme', timezone: 'Europe/Berlin' },
  },
  member: {
    schema: MemberUpdate,
    declaration: memberEditable,
    record: memberRecord,
    valid: { role: 'manager' },
  },
  escalation_policy: {
    schema: EscalationPolicyUpdate,
    declaration: escalationPolicyEditable,
    record: escalationPolicyRecord,
    valid: {
      name: 'Night shift',
      priority: 10,
      match: { severities: ['critical'] },
      levels: [{ after_minutes: 15, notify: [{ channel: 'email', recipient: 'ops@example.test' }] }],
      repeat: 1,
      ack_timeout_minutes: null,
      enabled: false,
    },
  },
  integration_connection: {
    schema: IntegrationConnectionUpdate,
    declaration: integrationConnectionEditable,
    record: integrationConnectionRecord,
    valid: {
      name: 'Books',
      status: 'disabled',
      scopes: ['accounting'],
      config: {},
      secret: null,
      mapping: {},
      schedule: null,
    },
  },
  webhook_endpoint: {
    schema: WebhookEndpointUpdate,
    declaration: webhookEndpointEditable,
    record: webhookEndpointRecord,
    valid: { url: 'https://example.test/hook', description: null, event_types: ['*'], enabled: true },
  },
  workflow_rule: {
    schema: WorkflowRuleUpdate,
    declaration: workflowRuleEditable,
    record: workflowRuleRecord,
    valid: {
      name: 'Triage',
      trigger: { event_type: 'exception.created' },
      conditions: [],
      actions: [
        { type: 'create_task', title: 'Look at {{title}}', assignee_role: 'manager', due_in_hours: 4 },
      ],
      enabled: false,
    },
  },
};

describe.each(Object.entries(cases))('the %s PATCH, derived from the fields its entity declares', (_, c) => {
  const { schema, declaration, record, valid } = c;
  const version = declaration.version ? { [declaration.version]: 3 } : {};
  const required = Object.fromEntries((declaration.required ?? []).map((field) => [field, valid[field]]));

  it('gives the version first, then exactly the declared fields in their order', () => {
    expect(Object.keys(schema.def.shape)).toEqual([
      ...(declaration.version ? [declaration.version] : []),
      ...declaration.body,
    ]);
    // The wire's fields, pinned: a field dropped from a declaration changes the API and fails here.
    expect(declaration.body).toEqual(Object.keys(valid));
  });

  it('takes each declared field alone (beside the version and the required ones)', () => {
    for (const field of declaration.body)
      expect([field, errorsOf(schema, { ...version, ...required, [field]: valid[field] })]).toEqual([
        field,
        [],
      ]);
  });

  it('refuses every other field of the record, naming it', () => {
    const others = record.fields.filter(
      (field) => !(declaration.body as readonly string[]).includes(field) && field !== declaration.version,
    );
    for (const field of others)
      expect(errorsOf(schema, { ...version, ...required, [field]: null })).toEqual([
        `${field} unrecognized_key`,
      ]);
  });

  it('requires the version and the required fields, and only those', () => {
    expect(
      errorsOf(schema, {})
        .map((error) => error.split(' ')[0])
        .sort(),
    ).toEqual(
      [...(declaration.version ? [declaration.version] : []), ...(declaration.required ?? [])].sort(),
    );
  });
});

describe('the use cases apply what the declaration lists', () => {
  it("a connection's write-only secret is a body field but no record field the use case compares", () => {
    expect(integrationConnectionEditable.fields).toEqual([
      'name',
      'status',
      'scopes',
      'config',
      'mapping',
      'schedule',
    ]);
    expect(integrationConnectionRecord.fields).not.toContain('secret');
  });

  it('a field added to a declaration joins its PATCH body, optional, with nothing else to write', () => {
    // Declaring one more field (the tenant's status, for the test) is all its PATCH body needs.
    const wider = editable(tenantRecord, [...tenantEditable.body, 'status']);
    const schema = patchSchema(wider, { name: z.string(), timezone: z.string(), status: z.enum(['active']) });
    expect(Object.keys(schema.def.shape)).toEqual(['name', 'timezone', 'status']);
    expect(errorsOf(schema, { status: 'active' })).toEqual([]);
    expect(errorsOf(schema, {})).toEqual([]);
  });
});
