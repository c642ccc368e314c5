import type * as z from 'zod';
import { call, DEMO_TENANT, demoCommand, DOC, SOURCE_SYSTEMS } from '../common';
import type { IntegrationRepairDemoRead } from '../schemas';
import { boundaries, steps } from './steps';

/** Repairing the inventory stock sync: diagnostics, an approved mapping change, reconciliation. */
export function integrationRepairDemo(): z.output<typeof IntegrationRepairDemoRead> {
  const reconciliation: z.output<typeof IntegrationRepairDemoRead>['reconciliation'] = [
    { dataset: `${DEMO_TENANT.sites[0]} stock items`, before: 0, after: 512, state: 'matched' },
    { dataset: `${DEMO_TENANT.sites[1]} stock items`, before: 0, after: 441, state: 'matched' },
    { dataset: `${DEMO_TENANT.sites[2]} stock items`, before: 0, after: 331, state: 'matched' },
    { dataset: 'reorder alerts', before: 0, after: 17, state: 'raised again' },
  ];
  const items = reconciliation.slice(0, 3).reduce((sum, r) => sum + r.after, 0);
  return {
    status: 'previewed',
    command: demoCommand('demo.integrationRepair'),
    api: {
      self: call('demo.integrationRepair'),
      diagnostics: call('integrationConnections.diagnose'),
      repairPreview: call('integrationRepairs.preview'),
      reconciliation: call('reconciliationRuns.create'),
      resolve: call('exceptions.changeStatus'),
    },
    docs: [{ ...DOC.walkthroughs }],
    title: `Repairing the ${SOURCE_SYSTEMS.inventory} stock sync`,
    summary: [
      { label: 'Items restored', value: String(items), detail: 'across three sites' },
      { label: 'Repair steps', value: '3', detail: 'one needs approval' },
      { label: 'Time to resolve', value: '2 h 35 min', detail: 'from detection to resolved exception' },
    ],
    incident: {
      connector: 'stockpilot-inventory',
      detectedAt: '2026-03-30T06:15:00Z',
      symptom: `nightly stock sync imported 0 of ${items} items`,
      impact: `reorder alerts for ${DEMO_TENANT.sites[1]} stopped`,
      exceptionType: 'integration.sync_failed',
    },
    walkthrough: steps([
      [
        'Exception raised',
        'sync worker',
        call('exceptions.create'),
        'integration.sync_failed, severity critical',
      ],
      [
        'Run diagnostics',
        'manager',
        call('integrationConnections.diagnose'),
        'the provider renamed warehouse_code to location_code',
      ],
      [
        'Preview the repair',
        'manager',
        call('integrationRepairs.preview'),
        'a three-step plan; nothing is changed by a preview',
      ],
      [
        'Approve the mapping change',
        'owner',
        call('previews.approvalGateway'),
        'dual control: the manager requests, the owner approves',
      ],
      [
        'Apply the mapping and replay',
        'manager',
        call('integrationConnections.update'),
        'the failed import is replayed idempotently',
      ],
      [
        'Reconcile',
        'manager',
        call('reconciliationRuns.create'),
        'counts match the inventory system for every site',
      ],
      [
        'Resolve the exception',
        'operator',
        call('exceptions.changeStatus'),
        'resolved with a note; audit event exception.status_changed',
      ],
    ]),
    diagnostics: [
      { check: 'authentication', finding: 'accepted', severity: 'info' },
      { check: 'granted scopes', finding: 'inventory:read present', severity: 'info' },
      {
        check: 'mapping keys',
        finding: 'warehouse_code not found; the provider now sends location_code',
        severity: 'critical',
      },
      { check: 'rate limit', finding: '12% of the hourly quota used', severity: 'info' },
      { check: 'last successful sync', finding: '2026-03-29T02:00:00Z', severity: 'warning' },
    ],
    repairPlan: [
      {
        step: 1,
        action: 'Map location_code to warehouse_code',
        mode: 'needs approval',
        risk: 'low: mapping only',
        rollback: 'restore the previous mapping version',
      },
      {
        step: 2,
        action: 'Replay the failed import of 2026-03-30',
        mode: 'automatic',
        risk: 'low: idempotent on item id',
        rollback: 'none needed: a replay never duplicates items',
      },
      {
        step: 3,
        action: 'Reconcile stock counts of every site',
        mode: 'automatic',
        risk: 'none: read only',
        rollback: 'not applicable',
      },
    ],
    reconciliation,
    dataBoundaries: boundaries({
      boundary: 'Diagnostics',
      publicSurface: 'Check names and findings in plain words.',
      privateServerSide: 'Provider responses behind each finding stay in the worker.',
    }),
  };
}
