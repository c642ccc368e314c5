import * as z from 'zod';
import { dataBoundaries, DemoTenant, demoBase, names, nullableText, row, summary, text } from './base';
import { NotificationDeliveryContractDemoRead } from './notifications';

/** `/demo/public` and the records embedded in it (docs/api.md section 8). */

const assistBase = { ...demoBase, summary, role: text, subject: text };

export const BusinessContextAssistantDemoRead = z
  .strictObject({
    ...assistBase,
    riskLevel: text,
    sourceSystems: names,
    highlights: z.array(
      row({ item: text, title: text, severity: text, reason: text, ageHours: z.int().min(0) }),
    ),
    recommendedActions: z.array(row({ item: text, action: text, roleMayAct: z.boolean(), handTo: text })),
    reviewPoints: z.array(row({ point: text, count: z.int().min(0) })),
    dataBoundaries,
  })
  .meta({ id: 'BusinessContextAssistantDemoRead' });

export const BusinessIntakePipelineDemoRead = z
  .strictObject({
    ...demoBase,
    summary,
    role: text,
    sourceSystems: names,
    intakePreviews: z.array(
      row({ source: text, event: text, accepted: z.boolean(), normalizedAs: nullableText, problems: names }),
    ),
    workbench: row({
      events: z.int().min(0),
      accepted: z.int().min(0),
      refused: z.int().min(0),
      documentsCompared: z.int().min(0),
    }),
    detections: row({
      ruleSet: text,
      findings: z.array(row({ rule: text, severity: text, documents: names, message: text, repair: text })),
    }),
    actionPlan: z.array(row({ step: z.int().min(1), action: text, lane: text, description: text })),
    notificationDrafts: z.array(
      row({ channel: text, audienceRole: text, subject: text, status: text, wouldQueue: z.boolean() }),
    ),
    dataBoundaries,
  })
  .meta({ id: 'BusinessIntakePipelineDemoRead' });

export const BusinessActionExecutionDemoRead = z
  .strictObject({
    ...assistBase,
    executionPlan: z.array(row({ step: z.int().min(1), action: text, target: text })),
    preflightChecks: z.array(row({ check: text, result: text })),
    dryRunResults: z.array(row({ step: z.int().min(1), wouldChange: text, result: text })),
    approvalGates: z.array(row({ gate: text, approverRole: text, state: text })),
    rollbackPlan: z.array(row({ step: z.int().min(1), undo: text })),
    dataBoundaries,
  })
  .meta({ id: 'BusinessActionExecutionDemoRead' });

export const BusinessApprovalGatewayDemoRead = z
  .strictObject({
    ...assistBase,
    approvalRequests: z.array(row({ request: text, requesterRole: text, approverRole: text, state: text })),
    policyChecks: z.array(row({ check: text, result: text })),
    approverRouting: z.array(row({ condition: text, routeTo: text })),
    commitUnlocks: z.array(row({ unlock: text, requires: text })),
    auditTrail: z.array(row({ eventType: text, note: text })),
    dataBoundaries,
  })
  .meta({ id: 'BusinessApprovalGatewayDemoRead' });

const jsonScalar = z.union([z.string(), z.number(), z.boolean(), z.null()]);

export const BusinessRecordsDemoRead = z
  .strictObject({
    ...demoBase,
    summary,
    subject: text,
    documents: z.array(
      row({
        id: text,
        documentType: text,
        number: text,
        counterparty: text,
        amount: text,
        issuedOn: text,
        dueOn: nullableText,
        appliesTo: nullableText,
        status: text,
      }),
    ),
    invoiceLines: z.array(row({ description: text, quantity: text, unitAmount: text })),
    workflowRule: row({ id: text, name: text, trigger: text, enabled: z.boolean(), action: text }),
    ruleTest: z.array(
      row({ field: text, op: text, value: jsonScalar, actual: jsonScalar, passed: z.boolean() }),
    ),
    ruleTests: z.array(
      row({
        event: text,
        matched: z.boolean(),
        failedConditions: text,
        plannedActions: z.int().min(0),
        sideEffects: z.literal('none'),
      }),
    ),
    tasks: z.array(
      row({
        title: text,
        status: text,
        assigneeRole: nullableText,
        dueAt: nullableText,
        subjectType: nullableText,
        subjectId: nullableText,
        sourceRuleId: text,
      }),
    ),
    auditTrail: z.array(row({ eventType: text, note: text })),
    dataBoundaries,
  })
  .meta({
    id: 'BusinessRecordsDemoRead',
    description:
      'Documents, a workflow rule tried on their events by the real matcher, and the task it creates (docs/api.md section 9.1).',
  });

export const PublicDemoRead = z
  .strictObject({
    ...demoBase,
    title: text,
    tagline: text,
    tenant: DemoTenant,
    summary,
    sections: z.array(row({ id: text, title: text, path: text, description: text })),
    contextAssistant: BusinessContextAssistantDemoRead,
    intakePipeline: BusinessIntakePipelineDemoRead,
    actionExecution: BusinessActionExecutionDemoRead,
    approvalGateway: BusinessApprovalGatewayDemoRead,
    businessRecords: BusinessRecordsDemoRead,
    notificationDelivery: NotificationDeliveryContractDemoRead,
    dataBoundaries,
  })
  .meta({
    id: 'PublicDemoRead',
    description:
      'The public demo: the fictional tenant, its business previews and the notification delivery contract.',
  });
