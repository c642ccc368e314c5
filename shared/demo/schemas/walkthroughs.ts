import * as z from 'zod';
import { NotificationChannel } from '#shared/api/schemas/notifications';
import { dataBoundaries, demoBase, names, row, summary, text } from './base';

/** The records of the five walkthroughs (shared/demo/walkthroughs/). */

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
