import type * as z from 'zod';
import { DELIVERY_MAX_ATTEMPTS } from '#shared/domain/notifications/channels';
import { call, demoCommand, DOC, SOURCE_SYSTEMS } from '../common';
import type { ConnectorCertificationDemoRead } from '../schemas';
import { boundaries, NONE_OFFLINE, steps } from './steps';

/** Certifying the accounting connector: contract checks, failure drills, the owner's verdict. */
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
