import type * as z from 'zod';
import { call, demoCommand, DOC, SOURCE_SYSTEMS } from '../common';
import type { ConnectorFixtureReplayDemoRead } from '../schemas';
import { boundaries, NONE_OFFLINE, steps } from './steps';

/** Replaying the accounting connector's sanitized fixtures offline, and deciding on the drift. */
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
