import * as z from 'zod';
import { NOTIFICATION_CHANNELS, NotificationChannel } from '#shared/api/schemas/notifications';

/**
 * Schemas of the public demo records (docs/api.md section 8). Every record is
 * camelCase, has `status: "previewed"`, a `command` that fetches it, an `api` map (name ->
 * "METHOD /path") and `docs` (title and path of each document that explains it). Objects are
 * strict, so a payload cannot carry a field the OpenAPI document does not describe.
 */

const text = z.string().min(1);
const names = z.array(text);
const row = z.strictObject;
const nullableText = z.union([text, z.null()]);

export const DemoStatus = z.literal('previewed');
export const DemoApi = z
  .record(z.string(), z.string())
  .meta({ description: 'What to call: a name mapped to "METHOD /path".' });
export const DemoDocs = z
  .array(z.record(z.string(), z.string()))
  .meta({ description: 'Documents that explain the record: each a map with `title` and `path`.' });

const demoBase = {
  status: DemoStatus,
  command: text.meta({ description: 'A shell command that fetches this record from the local runtime.' }),
  api: DemoApi,
  docs: DemoDocs,
};

export const DemoSummaryCard = row({ label: text, value: text, detail: text }).meta({
  id: 'DemoSummaryCard',
  description: 'One headline figure of a demo record.',
});
const summary = z.array(DemoSummaryCard);

export const DemoTenant = row({
  id: text,
  name: text,
  industry: text,
  region: text,
  sites: names,
  fictional: z.literal(true),
}).meta({ id: 'DemoTenant', description: 'The one fictional tenant all demo records describe.' });

export const DemoDataBoundary = row({ boundary: text, publicSurface: text, privateServerSide: text }).meta({
  id: 'DemoDataBoundary',
  description: 'What the public surface shows, and what stays private on the server.',
});
const dataBoundaries = z.array(DemoDataBoundary);

// The channel enum is the API's own (shared/api/schemas/notifications.ts): the demo describes it.
export { NOTIFICATION_CHANNELS, NotificationChannel };
const channelList = z.array(NotificationChannel);

// ---------------------------------------------------------------------------------------------
// Notification delivery contract (docs/api.md sections 7 and 8)

export const NotificationDeliveryContractDemoRead = z
  .strictObject({
    ...demoBase,
    title: text,
    summary,
    deliveryPath: z.array(
      row({
        step: z.int().min(1),
        stage: text,
        actor: text,
        what: text,
        resultStatus: text,
        metric: text,
        logEvent: text,
      }),
    ),
    outboxEvent: row({
      kind: text,
      writtenAfter: text,
      transaction: text,
      idempotencyKey: text,
      envelope: names,
      relay: text,
      recovery: text,
      consumer: text,
    }),
    channels: z.array(
      row({
        channel: NotificationChannel,
        label: text,
        direction: z.enum(['internal', 'external']),
        adapter: text,
        queue: text,
        deadLetterQueue: text,
        providerGate: text,
        recipientFormat: text,
        maxBodyChars: z.int().positive(),
        subject: z.enum(['required', 'optional', 'not used']),
        transport: text,
      }),
    ),
    queues: z.array(
      row({
        name: text,
        deadLetterQueue: text,
        carries: names,
        consumer: text,
        maxAttempts: z.int().positive(),
        alarms: names,
      }),
    ),
    providerGates: z.array(
      row({ channel: NotificationChannel, gate: text, opensWhen: names, whenClosed: text, publicView: text }),
    ),
    retryRouting: z.array(
      row({ outcome: text, signal: text, status: text, route: text, metric: text, logEvent: text }),
    ),
    deadLetters: z.array(
      row({
        queue: text,
        deadLetterQueue: text,
        entersWhen: text,
        alarm: text,
        runbook: text,
        redrive: text,
      }),
    ),
    reviewPath: z.array(row({ step: z.int().min(1), action: text, api: text, roles: names, result: text })),
    metrics: z.array(row({ name: text, unit: text, stage: text, meaning: text })),
    logEvents: z.array(row({ event: text, stage: text, meaning: text })),
    alarms: z.array(row({ name: text, signal: text, runbook: text })),
    dataBoundaries,
  })
  .meta({
    id: 'NotificationDeliveryContractDemoRead',
    description:
      'The notification delivery contract: channel adapter profiles, the outbox event, worker queues, provider gates, retry and dead-letter routing, the operator review path, and the metric, log and alarm names.',
  });

// ---------------------------------------------------------------------------------------------
// Channel matrix (docs/api.md section 8)

export const BusinessNotificationChannelMatrixDemoRead = z
  .strictObject({
    ...demoBase,
    title: text,
    tenant: DemoTenant,
    summary,
    channels: z.array(
      row({
        channel: NotificationChannel,
        label: text,
        enabled: z.boolean(),
        gateState: z.enum(['open', 'closed', 'not required']),
        connection: text,
        queue: text,
        audience: text,
        usedFor: names,
      }),
    ),
    routingRules: z.array(
      row({
        rule: text,
        trigger: text,
        condition: text,
        channels: channelList,
        audience: text,
        approval: text,
      }),
    ),
    approvalGates: z.array(
      row({ gate: text, appliesTo: text, approverRole: text, reason: text, state: text }),
    ),
    deliveryDrafts: z.array(
      row({
        draftId: text,
        rule: text,
        channel: NotificationChannel,
        audience: text,
        template: text,
        policyCheck: text,
        outcome: text,
        idempotencyKey: text,
      }),
    ),
    dataBoundaries,
  })
  .meta({
    id: 'BusinessNotificationChannelMatrixDemoRead',
    description: 'Which business events reach which channel for the demo tenant, with drafts and gates.',
  });

// ---------------------------------------------------------------------------------------------
// Walkthroughs

const walkStep = row({ step: z.int().min(1), title: text, actor: text, api: text, outcome: text });

export const ConnectorCertificationDemoRead = z
  .strictObject({
    ...demoBase,
    title: text,
    summary,
    connector: row({ key: text, name: text, category: text, direction: text, contractVersion: text }),
    walkthrough: z.array(walkStep),
    contractChecks: z.array(
      row({
        operation: text,
        direction: text,
        requiredMappingKeys: names,
        result: z.enum(['passed', 'warning']),
      }),
    ),
    failureModes: z.array(
      row({ mode: text, providerSignal: text, expectedHandling: text, verifiedBy: text }),
    ),
    scopes: z.array(row({ scope: text, requested: z.boolean(), reason: text })),
    verdict: row({ level: text, decidedBy: text, validUntil: text, conditions: names }),
    dataBoundaries,
  })
  .meta({
    id: 'ConnectorCertificationDemoRead',
    description: 'Certifying a connector against its adapter contract.',
  });

export const ProviderOnboardingDemoRead = z
  .strictObject({
    ...demoBase,
    title: text,
    summary,
    provider: row({ key: text, name: text, channel: NotificationChannel, category: text }),
    walkthrough: z.array(walkStep),
    checklist: z.array(row({ item: text, owner: text, state: z.enum(['done', 'pending']), evidence: text })),
    diagnostics: z.array(
      row({ probe: text, result: z.enum(['passed', 'warning']), latencyMs: z.int().min(0), note: text }),
    ),
    gateTransitions: z.array(row({ from: text, to: text, trigger: text })),
    dataBoundaries,
  })
  .meta({
    id: 'ProviderOnboardingDemoRead',
    description: 'Onboarding a delivery provider until its gate opens.',
  });

export const IntegrationRepairDemoRead = z
  .strictObject({
    ...demoBase,
    title: text,
    summary,
    incident: row({ connector: text, detectedAt: text, symptom: text, impact: text, exceptionType: text }),
    walkthrough: z.array(walkStep),
    diagnostics: z.array(
      row({ check: text, finding: text, severity: z.enum(['info', 'warning', 'critical']) }),
    ),
    repairPlan: z.array(
      row({
        step: z.int().min(1),
        action: text,
        mode: z.enum(['automatic', 'needs approval']),
        risk: text,
        rollback: text,
      }),
    ),
    reconciliation: z.array(row({ dataset: text, before: z.int(), after: z.int(), state: text })),
    dataBoundaries,
  })
  .meta({ id: 'IntegrationRepairDemoRead', description: 'Diagnosing and repairing a failing integration.' });

export const ConnectorFixtureReplayDemoRead = z
  .strictObject({
    ...demoBase,
    title: text,
    summary,
    run: row({ runId: text, adapter: text, fixtureSet: text, mode: text, startedAt: text }),
    walkthrough: z.array(walkStep),
    fixtures: z.array(
      row({
        fixtureId: text,
        event: text,
        normalizedFields: names,
        expectedRecord: text,
        result: z.enum(['matched', 'drift']),
        durationMs: z.int().min(0),
      }),
    ),
    mappingAssertions: z.array(
      row({ field: text, sourceField: text, target: text, result: z.enum(['passed', 'failed']) }),
    ),
    drift: z.array(row({ fixtureId: text, field: text, expected: text, actual: text, decision: text })),
    dataBoundaries,
  })
  .meta({
    id: 'ConnectorFixtureReplayDemoRead',
    description: 'Replaying recorded, sanitized connector fixtures through the adapter mapping.',
  });

export const BusinessScenarioReplayDemoRead = z
  .strictObject({
    ...demoBase,
    title: text,
    summary,
    scenario: row({ id: text, title: text, window: text, question: text }),
    timeline: z.array(
      row({ step: z.int().min(1), at: text, stage: text, actor: text, api: text, outcome: text }),
    ),
    exceptions: z.array(
      row({
        exceptionType: text,
        severity: z.enum(['info', 'warning', 'critical']),
        subject: text,
        title: text,
        status: text,
      }),
    ),
    notifications: z.array(row({ channel: NotificationChannel, audience: text, outcome: text })),
    auditTrail: z.array(row({ eventType: text, entity: text, actorRole: text })),
    observed: z.array(row({ metric: text, value: z.number(), unit: text })),
    dataBoundaries,
  })
  .meta({ id: 'BusinessScenarioReplayDemoRead', description: 'One business scenario replayed end to end.' });

// ---------------------------------------------------------------------------------------------
// Records embedded in /demo/public (docs/api.md section 8)

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
