import { describe, expect, it } from 'vitest';
import { adapterByKey } from '#shared/domain/integrations/adapters/index';
import { localChecks } from '#shared/domain/integrations/diagnostics';
import { computeHealth } from '#shared/domain/integrations/health';
import type { Connection, HealthRecord } from '#shared/domain/integrations/ports';
import { previewMapping, SAMPLE_DEPTH_MAX, valueAt } from '#shared/domain/integrations/previews';
import { compareRecords, mismatchException, type Mismatch } from '#shared/domain/integrations/reconciliation';
import type { BusinessDocument } from '#shared/domain/documents/ports';
import type { ReconciliationRun } from '#shared/domain/integrations/ports';

/** Health, checks, mapping and reconciliation of the integration hub, pure (docs/api.md section 9.3). */

const NOW = new Date('2026-03-10T12:00:00.000Z');
const hoursAgo = (h: number) => new Date(NOW.getTime() - h * 3_600_000).toISOString();
const record = (r: Partial<HealthRecord>): HealthRecord => ({
  last_success_at: null,
  last_failure_at: null,
  last_failure_reason: null,
  open_issue_codes: [],
  ...r,
});
const DAY = 24 * 60;

describe('computeHealth', () => {
  it.each([
    ['nothing recorded', undefined, 'unknown'],
    ['a success within the interval', record({ last_success_at: hoursAgo(23) }), 'healthy'],
    ['late: past 1x the interval', record({ last_success_at: hoursAgo(25) }), 'degraded'],
    ['just under 2x', record({ last_success_at: hoursAgo(47.9) }), 'degraded'],
    ['past 2x the interval', record({ last_success_at: hoursAgo(48.1) }), 'failing'],
    ['never succeeded', record({ last_failure_at: hoursAgo(1), last_failure_reason: 'x' }), 'failing'],
    [
      'a failure after the last success',
      record({ last_success_at: hoursAgo(2), last_failure_at: hoursAgo(1), last_failure_reason: 'HTTP 503' }),
      'degraded',
    ],
    [
      'a success after the last failure',
      record({ last_success_at: hoursAgo(1), last_failure_at: hoursAgo(2), last_failure_reason: 'HTTP 503' }),
      'healthy',
    ],
    [
      'an open issue, however fresh',
      record({ last_success_at: hoursAgo(0), open_issue_codes: ['secret_missing'] }),
      'failing',
    ],
  ])('%s', (_name, r, state) => {
    expect(computeHealth(r, DAY, NOW).state).toBe(state);
  });

  it('says why and what to do, and counts open issues', () => {
    const h = computeHealth(
      record({
        last_success_at: hoursAgo(1),
        open_issue_codes: ['scope_not_supported', 'mapping_incomplete'],
      }),
      DAY,
      NOW,
    );
    expect(h).toMatchObject({
      state: 'failing',
      reason: 'open issues: mapping_incomplete, scope_not_supported',
      open_issues: 2,
      last_success_at: hoursAgo(1),
    });
    expect(h.next_action).toContain('integration-repairs/preview');
    expect(computeHealth(record({ last_success_at: hoursAgo(30) }), DAY, NOW).reason).toBe(
      'no success for 30h (expected every 24h)',
    );
  });
});

const ledgerly = adapterByKey('ledgerly')!;
const connection = (c: Partial<Connection>): Connection => ({
  id: 'c1',
  tenant_id: 't1',
  adapter_key: 'ledgerly',
  category: 'accounting',
  name: 'Books',
  status: 'active',
  scopes: [...ledgerly.scopes.supported],
  config: { ...ledgerly.config_example },
  mapping: { ...ledgerly.mapping_example },
  secret_configured: true,
  created_at: NOW.toISOString(),
  updated_at: NOW.toISOString(),
  ...c,
});

describe('localChecks', () => {
  it('passes a complete connection', () => {
    expect(localChecks(ledgerly, connection({})).map((k) => k.status)).toEqual([
      'pass',
      'pass',
      'pass',
      'pass',
    ]);
  });

  it('fails each check with its issue code, naming fields and never values', () => {
    const checks = localChecks(
      ledgerly,
      connection({
        config: { ...ledgerly.config_example, region: 'mars' },
        secret_configured: false,
        scopes: ['invoices.write', 'ledger.delete'],
        mapping: { number: 'InvoiceNumber' },
      }),
    );
    expect(checks.map((k) => [k.id, k.status, k.issue_code])).toEqual([
      ['config_complete', 'fail', 'config_invalid'],
      ['secret_present', 'fail', 'secret_missing'],
      ['scopes_allowed', 'fail', 'scope_not_supported'],
      ['mapping_keys_present', 'fail', 'mapping_incomplete'],
    ]);
    expect(checks[0]!.message).toContain('config.region');
    expect(checks[0]!.message).not.toContain('mars');
    expect(checks[2]!.message).toContain('ledger.delete');
    expect(checks[3]!.message).toContain('counterparty, amount, currency, issued_on, account_code');
  });
});

describe('mapping preview', () => {
  it('reads dotted paths and every element of an array', () => {
    const sample = { a: { b: 1 }, items: [{ c: 'x' }, { c: 'y' }, { d: 1 }] };
    expect(valueAt(sample, 'a.b')).toBe(1);
    expect(valueAt(sample, 'items[].c')).toEqual(['x', 'y']);
    expect(valueAt(sample, 'a.z')).toBeUndefined();
    expect(valueAt(sample, 'toString')).toBeUndefined();
  });

  it('bounds the depth it walks', () => {
    let deep: Record<string, unknown> = { leaf: 1 };
    for (let i = 0; i < SAMPLE_DEPTH_MAX + 5; i++) deep = { n: deep };
    const r = previewMapping(ledgerly, deep, {});
    expect(r.warnings).toEqual([
      `the sample is nested deeper than ${SAMPLE_DEPTH_MAX} levels; deeper fields are not listed`,
    ]);
    expect(r.unmapped_fields).toEqual([]);
  });
});

const doc = (d: Partial<BusinessDocument>): BusinessDocument =>
  ({
    id: `d-${d.number}`,
    tenant_id: 't1',
    document_type: 'payment',
    number: 'PAY-1',
    counterparty: 'Globex',
    currency: 'EUR',
    amount: '100.00',
    status: 'open',
    created_at: '2026-03-01T00:00:00.000Z',
    ...d,
  }) as BusinessDocument;

describe('payment_reconciliation', () => {
  it('matches by reference, then by type and number; compares amounts exactly', () => {
    const documents = [
      doc({ number: 'PAY-1', amount: '100.00' }),
      doc({ number: 'PAY-2', amount: '50.00', external_refs: { ledgerly: 'L-77' } }),
      doc({ number: 'PAY-3', amount: '10.00' }),
      doc({ number: 'PAY-4', amount: '10.00' }),
    ];
    const r = compareRecords('ledgerly', documents, [
      { external_id: 'L-1', document_type: 'payment', number: 'PAY-1', amount: '100', currency: 'EUR' },
      { external_id: 'L-77', document_type: 'payment', number: 'OTHER', amount: '50.00', currency: 'EUR' },
      { external_id: 'L-3', document_type: 'payment', number: 'PAY-3', amount: '10.01', currency: 'EUR' },
      { external_id: 'L-5', document_type: 'invoice', number: 'PAY-4', amount: '10.00', currency: 'EUR' },
    ]);
    expect(r.matched).toBe(2);
    expect(r.mismatches.map((m) => m.document.number)).toEqual(['PAY-3']);
    expect(r.missing_locally.map((x) => x.external_id)).toEqual(['L-5']);
    expect(r.missing_in_provider.map((d) => d.number)).toEqual(['PAY-4']);
  });

  it('derives one exception id per mismatch: the same on every run, another for another mismatch', () => {
    const run = (id: string) =>
      ({
        id,
        tenant_id: 't1',
        connection_id: 'c1',
        adapter_key: 'ledgerly',
        rule_set: 'payment_reconciliation',
      }) as ReconciliationRun;
    const mismatch = (amount: string): Mismatch => ({
      document: doc({ number: 'PAY-3', amount: '10.00' }),
      record: { external_id: 'L-3', document_type: 'payment', number: 'PAY-3', amount, currency: 'EUR' },
    });
    const first = mismatchException(run('r1'), mismatch('10.01'), NOW.toISOString());
    const again = mismatchException(run('r2'), mismatch('10.01'), '2026-04-01T00:00:00.000Z');
    const other = mismatchException(run('r2'), mismatch('10.02'), NOW.toISOString());
    expect(again.id).toBe(first.id);
    expect(other.id).not.toBe(first.id);
    expect(first).toMatchObject({ exception_type: 'reconciliation.amount_mismatch', subject_id: 'd-PAY-3' });
  });
});
