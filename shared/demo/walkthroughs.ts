import type * as z from 'zod';
import { LOG_EVENTS, METRICS } from '#shared/kernel/names';
import { call, DEMO_TENANT, demoCommand, DOC, PUBLIC_BOUNDARIES, SOURCE_SYSTEMS } from './common';
import { CHANNEL_PROFILES, DELIVERY_MAX_ATTEMPTS } from '#shared/domain/notifications/channels';
import { DELIVERY_API } from './delivery';
import type {
  BusinessScenarioReplayDemoRead,
  ConnectorCertificationDemoRead,
  ConnectorFixtureReplayDemoRead,
  IntegrationRepairDemoRead,
  ProviderOnboardingDemoRead,
} from './schemas';

/**
 * The five walkthroughs of the demo tenant, Alder Creek Supply Co., around its March 2026
 * month-end close. Each is a numbered path a reader can follow; the `api` column names the call a
 * real tenant would make at that step.
 */

const NONE_OFFLINE = 'none: offline, in CI';

type Step = { step: number; title: string; actor: string; api: string; outcome: string };
const steps = (rows: [title: string, actor: string, api: string, outcome: string][]): Step[] =>
  rows.map(([title, actor, api, outcome], i) => ({ step: i + 1, title, actor, api, outcome }));

const boundaries = (...extra: (typeof PUBLIC_BOUNDARIES)[number][]) => [
  ...PUBLIC_BOUNDARIES.map((b) => ({ ...b })),
  ...extra,
];

// ---------------------------------------------------------------------------------------------

export function connectorCertificationDemo(): z.output<typeof ConnectorCertificationDemoRead> {
  const contractChecks: z.output<typeof ConnectorCertificationDemoRead>['contractChecks'] = [
    {
      operation: 'import.invoices',
      direction: 'inbound',
      requiredMappingKeys: ['invoice_number', 'supplier_ref', 'currency', 'total_amount', 'due_date'],
      result: 'passed',
    },
    {
      operation: 'import.payments',
      direction: 'inbound',
      requiredMappingKeys: ['payment_ref', 'invoice_number', 'amount', 'value_date'],
      result: 'passed',
    },
    {
      operation: 'import.suppliers',
      direction: 'inbound',
      requiredMappingKeys: ['supplier_ref', 'display_name', 'payment_terms'],
      result: 'warning',
    },
    {
      operation: 'export.journal_batch',
      direction: 'outbound',
      requiredMappingKeys: ['export_batch_id', 'ledger_account', 'amount', 'currency'],
      result: 'passed',
    },
  ];
  const failureModes: z.output<typeof ConnectorCertificationDemoRead>['failureModes'] = [
    {
      mode: 'rate limited',
      providerSignal: 'HTTP 429 with Retry-After',
      expectedHandling: 'retry after the advertised delay',
      verifiedBy: 'fixture lla-429-rate-limited',
    },
    {
      mode: 'provider outage',
      providerSignal: 'HTTP 5xx or timeout',
      expectedHandling: `retry with backoff; dead letter after ${DELIVERY_MAX_ATTEMPTS} attempts`,
      verifiedBy: 'failure drill in the sandbox connection',
    },
    {
      mode: 'access revoked',
      providerSignal: 'HTTP 401 from the provider',
      expectedHandling: 'no retry; connection needs attention; review item opened',
      verifiedBy: 'failure drill in the sandbox connection',
    },
    {
      mode: 'duplicate export',
      providerSignal: 'batch id already booked',
      expectedHandling: 'treated as success: exports are idempotent on export_batch_id',
      verifiedBy: 'fixture lla-journal-duplicate',
    },
    {
      mode: 'schema drift',
      providerSignal: 'a required mapping key is missing',
      expectedHandling: 'import paused, exception integration.mapping_drift raised',
      verifiedBy: 'fixture replay drift check',
    },
  ];
  const passed = contractChecks.filter((c) => c.result === 'passed').length;
  return {
    status: 'previewed',
    command: demoCommand('demo.connectorCertification'),
    api: {
      self: call('demo.connectorCertification'),
      adapter: call('adapters.get'),
      createConnection: call('integrationConnections.create'),
      mappingPreview: call('integrationConnections.previewMapping'),
      diagnostics: call('integrationConnections.diagnose'),
      fixtureReplay: call('demo.connectorFixtureReplay'),
    },
    docs: [{ ...DOC.walkthroughs }, { ...DOC.demo }],
    title: `Certifying the ${SOURCE_SYSTEMS.accounting} connector`,
    summary: [
      {
        label: 'Contract checks',
        value: `${passed} of ${contractChecks.length} passed`,
        detail: 'one warning, no failure',
      },
      {
        label: 'Failure modes drilled',
        value: String(failureModes.length),
        detail: 'each with an expected handling',
      },
      { label: 'Verdict', value: 'certified', detail: 'with two conditions' },
    ],
    connector: {
      key: 'ledgerline-accounting',
      name: SOURCE_SYSTEMS.accounting,
      category: 'accounting',
      direction: 'bidirectional: invoices and payments in, journal batches out',
      contractVersion: '2026-01',
    },
    walkthrough: steps([
      [
        'Read the adapter contract',
        'manager',
        call('adapters.get'),
        '4 operations, their mapping keys and 5 failure modes',
      ],
      [
        'Create a sandbox connection',
        'manager',
        call('integrationConnections.create'),
        'connection in sandbox mode; its credentials go to private server-side configuration, never into a request',
      ],
      [
        'Preview the mapping',
        'manager',
        call('integrationConnections.previewMapping'),
        'every required mapping key resolves to a provider field',
      ],
      [
        'Run diagnostics',
        'manager',
        call('integrationConnections.diagnose'),
        'reachability, granted scopes, rate-limit headers and clock skew',
      ],
      [
        'Replay fixtures',
        'connector engineer',
        call('demo.connectorFixtureReplay'),
        'one drift found and fixed',
      ],
      [
        'Drill the failure modes',
        'connector engineer',
        NONE_OFFLINE,
        'each mode ends in retry, dead letter or review',
      ],
      ['Record the verdict', 'owner', 'none: recorded in the certification log', 'certified for production'],
    ]),
    contractChecks,
    failureModes,
    scopes: [
      { scope: 'invoices:read', requested: true, reason: 'import supplier invoices' },
      { scope: 'payments:read', requested: true, reason: 'match payments to invoices' },
      { scope: 'suppliers:read', requested: true, reason: 'supplier names and payment terms' },
      { scope: 'journals:write', requested: true, reason: 'export journal batches' },
      { scope: 'payroll:read', requested: false, reason: 'not needed: least privilege' },
    ],
    verdict: {
      level: 'certified for production',
      decidedBy: 'owner',
      validUntil: '2026-09-30',
      conditions: [
        'replay the fixture set again when the provider announces a new API version',
        'payment_terms defaults to net-30 when a supplier has none (the warning above)',
      ],
    },
    dataBoundaries: boundaries({
      boundary: 'Certification evidence',
      publicSurface: 'Check names, results and fixture ids.',
      privateServerSide:
        'Sandbox credentials and provider responses stay in the private connection configuration.',
    }),
  };
}

// ---------------------------------------------------------------------------------------------

export function providerOnboardingDemo(): z.output<typeof ProviderOnboardingDemoRead> {
  const sms = CHANNEL_PROFILES.sms;
  const checklist: z.output<typeof ProviderOnboardingDemoRead>['checklist'] = [
    {
      item: 'Adapter contract reviewed',
      owner: 'manager',
      state: 'done',
      evidence: `${sms.adapter}, ${sms.recipientFormat}`,
    },
    {
      item: 'Sender id registered with the provider',
      owner: 'owner',
      state: 'done',
      evidence: 'registration kept with the private configuration',
    },
    {
      item: 'Private configuration present',
      owner: 'platform operator',
      state: 'done',
      evidence: 'configured: yes',
    },
    {
      item: 'Diagnostics passed',
      owner: 'manager',
      state: 'done',
      evidence: 'three probes passed, one warning',
    },
    {
      item: 'Bulk-sms approval gate',
      owner: 'owner',
      state: 'done',
      evidence: 'sends to more than 20 recipients need the owner',
    },
    {
      item: 'Opt-out replies routed',
      owner: 'manager',
      state: 'pending',
      evidence: 'STOP replies to reach the in-app inbox',
    },
  ];
  return {
    status: 'previewed',
    command: demoCommand('demo.providerOnboarding'),
    api: {
      self: call('demo.providerOnboarding'),
      adapter: call('adapters.get'),
      createConnection: call('integrationConnections.create'),
      activateConnection: call('integrationConnections.update'),
      diagnostics: call('integrationConnections.diagnose'),
      decide: DELIVERY_API.decide,
    },
    docs: [{ ...DOC.walkthroughs }, { ...DOC.delivery }],
    title: `Onboarding ${SOURCE_SYSTEMS.sms} for SMS alerts`,
    summary: [
      {
        label: 'Checklist',
        value: `${checklist.filter((c) => c.state === 'done').length} of ${checklist.length} done`,
        detail: 'opt-out routing still pending',
      },
      { label: 'Gate', value: 'closed to open', detail: 'after configuration, diagnostics and activation' },
      { label: 'Body limit', value: `${sms.maxBodyChars} characters`, detail: 'six concatenated segments' },
    ],
    provider: {
      key: 'textharbor-sms',
      name: SOURCE_SYSTEMS.sms,
      channel: 'sms',
      category: 'notification provider',
    },
    walkthrough: steps([
      ['Choose the adapter', 'manager', call('adapters.get'), `${sms.label}: ${sms.recipientFormat}`],
      [
        'Create the connection',
        'manager',
        call('integrationConnections.create'),
        'state onboarding; the sms gate stays closed',
      ],
      [
        'Provide the private configuration',
        'platform operator',
        'none: server side, out of band',
        'configured: yes; the value never appears in a response, a log line or an audit event',
      ],
      [
        'Run diagnostics',
        'manager',
        call('integrationConnections.diagnose'),
        'reachability, authentication and sender id pass',
      ],
      [
        'Activate the connection',
        'manager',
        call('integrationConnections.update'),
        'state active; the sms gate opens',
      ],
      [
        'Retry the gated alert',
        'operator',
        DELIVERY_API.decide,
        'the gated critical-exception sms (ntf_demo_1003) is queued again under its idempotency key and delivered',
      ],
      [
        'Watch the evidence',
        'SRE',
        'none: CloudWatch dashboard',
        `${METRICS.notificationDelivered} rises, ${METRICS.notificationGated} falls to zero; ${LOG_EVENTS.notificationGated} lines stop`,
      ],
    ]),
    checklist,
    diagnostics: [
      {
        probe: 'DNS and TLS to the gateway',
        result: 'passed',
        latencyMs: 84,
        note: 'certificate valid for 212 days',
      },
      {
        probe: 'Authentication',
        result: 'passed',
        latencyMs: 131,
        note: 'accepted; nothing of it is logged',
      },
      { probe: 'Sender id', result: 'passed', latencyMs: 96, note: 'alphanumeric sender registered' },
      {
        probe: 'Delivery receipt callback',
        result: 'warning',
        latencyMs: 0,
        note: 'not set up; delivery is confirmed by the send response only',
      },
    ],
    gateTransitions: [
      { from: 'closed: no connection', to: 'closed: onboarding', trigger: 'connection created' },
      {
        from: 'closed: onboarding',
        to: 'open',
        trigger: 'configuration present, diagnostics passed, connection activated',
      },
      { from: 'open', to: 'closed: suspended', trigger: 'connection suspended or its configuration removed' },
    ],
    dataBoundaries: boundaries({
      boundary: 'Provider configuration',
      publicSurface: 'Only "configured: yes/no" and the connection state.',
      privateServerSide: 'The configuration itself, readable by the external delivery worker only.',
    }),
  };
}

// ---------------------------------------------------------------------------------------------

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

// ---------------------------------------------------------------------------------------------

export function connectorFixtureReplayDemo(): z.output<typeof ConnectorFixtureReplayDemoRead> {
  const fixtures: z.output<typeof ConnectorFixtureReplayDemoRead>['fixtures'] = [
    {
      fixtureId: 'lla-invoice-001',
      event: 'invoice created',
      normalizedFields: ['invoice_number', 'supplier_ref', 'currency', 'total_amount', 'due_date'],
      expectedRecord: 'document INV-20417, 5,400.00 USD',
      result: 'matched',
      durationMs: 12,
    },
    {
      fixtureId: 'lla-invoice-002-credit-note',
      event: 'credit note created',
      normalizedFields: ['invoice_number', 'supplier_ref', 'currency', 'total_amount'],
      expectedRecord: 'document CN-0093, -1,240.00 USD',
      result: 'drift',
      durationMs: 14,
    },
    {
      fixtureId: 'lla-payment-001',
      event: 'payment booked',
      normalizedFields: ['payment_ref', 'invoice_number', 'amount', 'value_date'],
      expectedRecord: 'payment PAY-88120 against INV-20417, 4,860.00 USD',
      result: 'matched',
      durationMs: 9,
    },
    {
      fixtureId: 'lla-supplier-001',
      event: 'supplier updated',
      normalizedFields: ['supplier_ref', 'display_name', 'payment_terms'],
      expectedRecord: 'supplier S-118, net-30',
      result: 'matched',
      durationMs: 7,
    },
    {
      fixtureId: 'lla-journal-duplicate',
      event: 'journal batch already booked',
      normalizedFields: ['export_batch_id'],
      expectedRecord: 'export counted as delivered, nothing booked twice',
      result: 'matched',
      durationMs: 6,
    },
    {
      fixtureId: 'lla-429-rate-limited',
      event: 'rate limited',
      normalizedFields: ['retry_after_seconds'],
      expectedRecord: 'retry scheduled after 30 s',
      result: 'matched',
      durationMs: 3,
    },
  ];
  const matched = fixtures.filter((f) => f.result === 'matched').length;
  return {
    status: 'previewed',
    command: demoCommand('demo.connectorFixtureReplay'),
    api: {
      self: call('demo.connectorFixtureReplay'),
      certification: call('demo.connectorCertification'),
      mappingPreview: call('integrationConnections.previewMapping'),
    },
    docs: [{ ...DOC.walkthroughs }],
    title: `Replaying ${SOURCE_SYSTEMS.accounting} fixtures`,
    summary: [
      { label: 'Fixtures replayed', value: String(fixtures.length), detail: 'sanitized, offline' },
      { label: 'Matched', value: String(matched), detail: 'mapped record equals the expected record' },
      { label: 'Drift', value: String(fixtures.length - matched), detail: 'credit notes lost their sign' },
      {
        label: 'Replay time',
        value: `${fixtures.reduce((sum, f) => sum + f.durationMs, 0)} ms`,
        detail: 'no provider is called',
      },
    ],
    run: {
      runId: 'replay_demo_0412',
      adapter: 'ledgerline-accounting',
      fixtureSet: `ledgerline-2026-01 (${fixtures.length} sanitized fixtures)`,
      mode: 'offline: no provider is called, nothing is written',
      startedAt: '2026-03-28T09:00:00Z',
    },
    walkthrough: steps([
      [
        'Record and sanitize',
        'connector engineer',
        NONE_OFFLINE,
        'provider responses are reduced to normalized fields; raw payloads are not kept',
      ],
      ['Load the fixture set', 'CI', NONE_OFFLINE, `${fixtures.length} fixtures for contract 2026-01`],
      [
        'Replay through the mapping',
        'CI',
        call('integrationConnections.previewMapping'),
        'each fixture becomes the record the tenant would see',
      ],
      [
        'Compare with the expected records',
        'CI',
        NONE_OFFLINE,
        `${matched} matched, ${fixtures.length - matched} drifted`,
      ],
      [
        'Decide on the drift',
        'manager',
        call('integrationConnections.update'),
        'mapping fixed: credit notes negate total_amount',
      ],
      ['Replay again', 'CI', NONE_OFFLINE, 'all fixtures match; certification continues'],
    ]),
    fixtures,
    mappingAssertions: [
      {
        field: 'invoice_number',
        sourceField: 'document number',
        target: 'document.invoice_number',
        result: 'passed',
      },
      { field: 'supplier_ref', sourceField: 'contact id', target: 'document.supplier_ref', result: 'passed' },
      { field: 'total_amount', sourceField: 'total', target: 'document.total_amount', result: 'failed' },
      { field: 'currency', sourceField: 'currency code', target: 'document.currency', result: 'passed' },
      { field: 'due_date', sourceField: 'due date', target: 'document.due_date', result: 'passed' },
    ],
    drift: [
      {
        fixtureId: 'lla-invoice-002-credit-note',
        field: 'total_amount',
        expected: '-1,240.00',
        actual: '1,240.00',
        decision: 'fix the mapping: credit notes negate total_amount',
      },
    ],
    dataBoundaries: boundaries({
      boundary: 'Fixtures',
      publicSurface: 'Fixture ids, normalized field names and outcomes.',
      privateServerSide: 'No raw provider payload is stored, in fixtures or anywhere else.',
    }),
  };
}

// ---------------------------------------------------------------------------------------------

export function businessScenarioReplayDemo(): z.output<typeof BusinessScenarioReplayDemoRead> {
  const notifications: z.output<typeof BusinessScenarioReplayDemoRead>['notifications'] = [
    { channel: 'in_app', audience: 'accountants', outcome: 'delivered' },
    { channel: 'email', audience: 'accountants', outcome: 'delivered' },
    { channel: 'webhook', audience: 'the tenant ERP', outcome: 'delivered on attempt 2 after a 503' },
    {
      channel: 'email',
      audience: 'supplier accounts contact',
      outcome: 'waiting for the external-wording approval',
    },
  ];
  const queued = notifications.filter((n) => n.outcome.startsWith('delivered')).length;
  return {
    status: 'previewed',
    command: demoCommand('demo.businessScenarioReplay'),
    api: {
      self: call('demo.businessScenarioReplay'),
      exceptions: call('exceptions.create'),
      notifications: DELIVERY_API.send,
      accountingExports: call('accountingExports.create'),
    },
    docs: [{ ...DOC.walkthroughs }, { ...DOC.delivery }],
    title: 'Month-end supplier payment mismatch',
    summary: [
      { label: 'Steps', value: '9', detail: 'from bank line to resolved exception' },
      { label: 'Exceptions', value: '2', detail: 'one warning, one info' },
      {
        label: 'Notifications delivered',
        value: `${queued} of ${notifications.length}`,
        detail: 'one waits for approval',
      },
      { label: 'Previews', value: '4', detail: 'they persist nothing' },
    ],
    scenario: {
      id: 'scn_month_end_payment_mismatch',
      title: 'A supplier paid 540.00 USD less than invoiced',
      window: '2026-03-31, month-end close',
      question:
        'How does the tenant get from a bank line to a resolved, audited outcome before the books close?',
    },
    timeline: [
      [
        '07:02',
        'Intake',
        SOURCE_SYSTEMS.bank,
        call('previews.intakePipeline'),
        'payment PAY-88120 of 4,860.00 USD normalized; it refers to invoice INV-20417',
      ],
      [
        '07:03',
        'Detection',
        'accountant',
        call('previews.detection'),
        'payment_reconciliation: 540.00 USD below INV-20417 (5,400.00 USD)',
      ],
      [
        '07:05',
        'Exception',
        'operator',
        call('exceptions.create'),
        'payment.amount_mismatch, severity warning',
      ],
      [
        '07:06',
        'Notification',
        'routing rule payment-mismatch-digest',
        DELIVERY_API.send,
        'in-app and email digests to accountants, webhook to the ERP',
      ],
      [
        '07:20',
        'Escalation',
        'manager',
        call('previews.escalation'),
        'exception_triage: accounts-payable queue, due before close',
      ],
      [
        '08:10',
        'Action plan',
        'manager',
        call('previews.actionPlan'),
        'confirm the early-payment discount, book it, notify the supplier',
      ],
      [
        '08:25',
        'Approval',
        'owner',
        call('previews.approvalGateway'),
        'dual control: manager requested, owner approved',
      ],
      [
        '09:00',
        'Accounting export',
        'accountant',
        call('accountingExports.create'),
        'journal batch je-2026-03-31-01 exported once (idempotent on export_batch_id)',
      ],
      [
        '09:05',
        'Resolution',
        'operator',
        call('exceptions.changeStatus'),
        'resolved: 10% early-payment discount; the supplier notice waits for approval',
      ],
    ].map(([time, stage, actor, api, outcome], i) => ({
      step: i + 1,
      at: `2026-03-31T${time}:00Z`,
      stage: stage!,
      actor: actor!,
      api: api!,
      outcome: outcome!,
    })),
    exceptions: [
      {
        exceptionType: 'payment.amount_mismatch',
        severity: 'warning',
        subject: 'supplier_invoice INV-20417',
        title: 'Payment 540.00 USD below invoice',
        status: 'resolved',
      },
      {
        exceptionType: 'supplier.terms_defaulted',
        severity: 'info',
        subject: 'supplier S-118',
        title: 'Payment terms defaulted to net-30',
        status: 'acknowledged',
      },
    ],
    notifications,
    auditTrail: [
      { eventType: 'exception.created', entity: 'exception payment.amount_mismatch', actorRole: 'operator' },
      { eventType: 'notification.queued', entity: 'notification ntf_demo_1004', actorRole: 'operator' },
      { eventType: 'accounting_export.created', entity: 'export je-2026-03-31-01', actorRole: 'accountant' },
      {
        eventType: 'exception.status_changed',
        entity: 'exception payment.amount_mismatch',
        actorRole: 'operator',
      },
    ],
    observed: [
      { metric: METRICS.outboxWritten, value: queued + 1, unit: 'Count' },
      { metric: METRICS.notificationQueued, value: queued, unit: 'Count' },
      { metric: METRICS.notificationRetried, value: 1, unit: 'Count' },
      { metric: METRICS.notificationDelivered, value: queued, unit: 'Count' },
      { metric: METRICS.relayLag, value: 180, unit: 'Milliseconds (p99)' },
    ],
    dataBoundaries: boundaries(),
  };
}
