import { describe, expect, it } from 'vitest';
import { adapterByKey } from '#shared/domain/integrations/adapters/index';
import { localChecks } from '#shared/domain/integrations/diagnostics';
import { computeHealth } from '#shared/domain/integrations/health';
import type { Connection, HealthRecord } from '#shared/domain/integrations/ports';
import { previewMapping, SAMPLE_DEPTH_MAX, valueAt } from '#shared/domain/integrations/previews';
import {
  compareRecords,
  mismatchException,
  type Mismatch,
} from '#shared/domain/integrations/reconciliation-compare';
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

  it('a refused OAuth app is failing with app_credentials_invalid, over a later success or an open issue, until cleared', () => {
    const refused = record({
      last_success_at: hoursAgo(0),
      last_failure_at: hoursAgo(1),
      last_failure_reason: 'auth_failed',
      open_issue_codes: ['mapping_incomplete'],
      app_credentials_invalid_since: hoursAgo(1),
    });
    const h = computeHealth(refused, DAY, NOW);
    expect(h).toMatchObject({ state: 'failing', reason: 'app_credentials_invalid' });
    expect(h.next_action).toContain('nothing to do in this tenant');
    // A refused consent still says so first: only a new consent helps there.
    expect(
      computeHealth({ ...refused, open_issue_codes: ['reauthorization_required'] }, DAY, NOW).reason,
    ).toBe('reauthorization_required');
    expect(computeHealth({ ...refused, app_credentials_invalid_since: null }, DAY, NOW).reason).toBe(
      'open issue: mapping_incomplete',
    );
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

  it('answers every state with its reason, next action and the record it read', () => {
    const diagnose = 'run the diagnostics (POST .../integration-connections/{id}/diagnostics)';
    expect(computeHealth(undefined, DAY, NOW)).toEqual({
      state: 'unknown',
      reason: 'no delivery or check recorded yet',
      next_action: diagnose,
      last_success_at: null,
      last_failure_at: null,
      open_issues: 0,
    });
    expect(
      computeHealth(record({ last_failure_at: hoursAgo(1), last_failure_reason: 'HTTP 401' }), DAY, NOW),
    ).toEqual({
      state: 'failing',
      reason: 'never succeeded; last failure: HTTP 401',
      next_action: diagnose,
      last_success_at: null,
      last_failure_at: hoursAgo(1),
      open_issues: 0,
    });
    expect(
      computeHealth(
        record({
          last_success_at: hoursAgo(2),
          last_failure_at: hoursAgo(1),
          last_failure_reason: 'timeout',
        }),
        DAY,
        NOW,
      ),
    ).toEqual({
      state: 'degraded',
      reason: 'last call failed: timeout',
      next_action: diagnose,
      last_success_at: hoursAgo(2),
      last_failure_at: hoursAgo(1),
      open_issues: 0,
    });
    expect(computeHealth(record({ last_success_at: hoursAgo(1.25) }), DAY, NOW)).toEqual({
      state: 'healthy',
      reason: 'last success 1.3h ago',
      next_action: null,
      last_success_at: hoursAgo(1.25),
      last_failure_at: null,
      open_issues: 0,
    });
    expect(computeHealth(record({ last_success_at: hoursAgo(49) }), DAY, NOW)).toMatchObject({
      state: 'failing',
      reason: 'no success for 49h (expected every 24h)',
      next_action: diagnose,
    });
    expect(computeHealth(record({ open_issue_codes: ['secret_missing'] }), DAY, NOW)).toEqual({
      state: 'failing',
      reason: 'open issue: secret_missing',
      next_action:
        'preview the repair (POST /tenants/{tenant_id}/integration-repairs/preview), apply it, then run the diagnostics again',
      last_success_at: null,
      last_failure_at: null,
      open_issues: 1,
    });
  });

  it('is healthy at exactly the interval, degraded at exactly twice it, and a failure at the same instant as the success does not degrade', () => {
    expect(computeHealth(record({ last_success_at: hoursAgo(24) }), DAY, NOW).state).toBe('healthy');
    expect(computeHealth(record({ last_success_at: hoursAgo(48) }), DAY, NOW).state).toBe('degraded');
    const at = hoursAgo(1);
    expect(
      computeHealth(record({ last_success_at: at, last_failure_at: at, last_failure_reason: 'x' }), DAY, NOW)
        .state,
    ).toBe('healthy');
    // A late success and a later failure: lateness is the reason, not the failure.
    expect(
      computeHealth(
        record({ last_success_at: hoursAgo(30), last_failure_at: hoursAgo(1), last_failure_reason: 'x' }),
        DAY,
        NOW,
      ).reason,
    ).toBe('last call failed: x');
    // The interval is the category's: a week for a notification channel.
    expect(computeHealth(record({ last_success_at: hoursAgo(100) }), 7 * DAY, NOW).state).toBe('healthy');
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

  it('every accounting adapter on its default scopes has a scope for each of its operations', () => {
    for (const key of ['xero', 'quickbooks_online', 'ledgerly', 'tallybook']) {
      const adapter = adapterByKey(key)!;
      const scopes = localChecks(adapter, connection({ scopes: [...adapter.scopes.default] })).find(
        (k) => k.id === 'scopes_allowed',
      );
      expect(scopes, key).toMatchObject({ status: 'pass' });
    }
    // A `.read` is granted by the scope it narrows, and by nothing else: Xero's reads warn without it.
    const xero = adapterByKey('xero')!;
    const reads = localChecks(xero, connection({ scopes: ['accounting.contacts'] })).find(
      (k) => k.id === 'scopes_allowed',
    );
    expect(reads).toMatchObject({ status: 'warn' });
    expect(reads!.message).toContain('read_invoices');
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

  it('finds nothing through null, a scalar, an array without [] or a non-array with []', () => {
    const sample = { a: null, n: 5, list: [{ x: 1 }], obj: { x: 1 }, empty: [] };
    expect(valueAt(sample, 'a.x')).toBeUndefined();
    expect(valueAt(sample, 'n.x')).toBeUndefined();
    expect(valueAt(sample, 'list.x')).toBeUndefined();
    expect(valueAt(sample, 'obj[].x')).toBeUndefined();
    expect(valueAt(sample, 'empty[]')).toBeUndefined();
    expect(valueAt(sample, 'list[]')).toEqual([{ x: 1 }]);
    // One element is still a list when the path spreads an array, and a plain path is its value.
    expect(valueAt(sample, 'list[].x')).toEqual([1]);
    expect(valueAt(sample, 'obj')).toEqual({ x: 1 });
    expect(valueAt({ a: { b: [{ c: [{ d: 1 }, { d: 2 }] }, { c: [{ d: 3 }] }] } }, 'a.b[].c[].d')).toEqual([
      1, 2, 3,
    ]);
    expect(valueAt({ v: 0 }, 'v')).toBe(0);
  });

  it('maps a sample: the values, the required keys missing, the fields no path reads, a warning per empty path', () => {
    const sample = {
      InvoiceNumber: 'INV-1',
      Contact: { Name: 'Globex', Email: 'a@globex.example' },
      Total: '10.00',
      LineItems: [{ AccountCode: '200', Qty: 1 }, { AccountCode: '210' }],
      Tags: ['a', 'b'],
      Extra: { Deep: { Leaf: true } },
      Nothing: null,
    };
    const r = previewMapping(ledgerly, sample, {
      number: 'InvoiceNumber',
      counterparty: 'Contact',
      amount: 'Total',
      account_code: 'LineItems[].AccountCode',
      currency: 'CurrencyCode',
    });
    expect(r).toEqual({
      mapped: {
        number: 'INV-1',
        counterparty: { Name: 'Globex', Email: 'a@globex.example' },
        amount: '10.00',
        account_code: ['200', '210'],
      },
      missing_required_keys: ['issued_on'],
      unmapped_fields: ['Extra.Deep.Leaf', 'LineItems[].Qty', 'Nothing', 'Tags[]'],
      warnings: ['currency: the sample has nothing at CurrencyCode'],
    });
    // A path naming an array reads every field below it; a path is not a prefix of a longer name.
    expect(
      previewMapping(ledgerly, { Items: [{ a: 1 }], Itemsx: 1 }, { number: 'Items' }).unmapped_fields,
    ).toEqual(['Itemsx']);
    expect(previewMapping(ledgerly, { Items: [{ a: 1 }] }, { number: 'Items[]' }).unmapped_fields).toEqual(
      [],
    );
    expect(previewMapping(ledgerly, { A: { b: 1 }, Ab: 2 }, { number: 'A' }).unmapped_fields).toEqual(['Ab']);
  });

  it('lists a sample exactly at the depth bound, and warns only past it', () => {
    let deep: unknown = 1;
    for (let i = 0; i < SAMPLE_DEPTH_MAX; i++) deep = { n: deep };
    const exact = previewMapping(ledgerly, deep as Record<string, unknown>, {});
    expect(exact.warnings).toEqual([]);
    expect(exact.unmapped_fields).toEqual([Array(SAMPLE_DEPTH_MAX).fill('n').join('.')]);
    // A too-deep branch in an array does not hide its shallow siblings.
    const wide = previewMapping(ledgerly, { list: [deep, 'x'], flat: 1 }, {});
    expect(wide.unmapped_fields).toEqual(['flat', 'list[]']);
    expect(wide.warnings).toHaveLength(1);
    const wideObject = previewMapping(ledgerly, { a: deep, b: 1 }, {});
    expect(wideObject.unmapped_fields).toEqual(['b']);
    expect(wideObject.warnings).toHaveLength(1);
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

  it("matches a provider's payment through the invoice it links, never by its reference", () => {
    const documents = [
      doc({ document_type: 'invoice', number: 'INV-1', amount: '10.00', external_refs: { xero: 'X-I1' } }),
      doc({ document_type: 'invoice', number: 'INV-2', amount: '20.00' }),
      doc({ number: 'PAY-1', amount: '10.00', applies_to: 'd-INV-1' }),
      doc({ number: 'PAY-2', amount: '20.00', applies_to: 'd-INV-2' }),
      doc({ number: 'PAY-3', amount: '5.00', applies_to: 'd-INV-2' }),
    ];
    const r = compareRecords('xero', documents, [
      // The payments first: the invoice a payment links to may come later in the provider's pages.
      {
        external_id: 'X-P2',
        document_type: 'payment',
        // Its reference names the payment of another invoice.
        number: 'PAY-1',
        amount: '20.00',
        currency: 'EUR',
        invoice_external_id: 'X-I2',
      },
      {
        external_id: 'X-P1',
        document_type: 'payment',
        number: 'X-P1',
        amount: '10.00',
        currency: 'EUR',
        invoice_external_id: 'X-I1',
      },
      {
        external_id: 'X-P9',
        document_type: 'payment',
        number: 'X-P9',
        amount: '1.00',
        currency: 'EUR',
        invoice_external_id: 'X-UNKNOWN',
      },
      { external_id: 'X-I1', document_type: 'invoice', number: 'INV-1', amount: '10.00', currency: 'EUR' },
      // Paired by number: this run learns INV-2's provider id from it.
      { external_id: 'X-I2', document_type: 'invoice', number: 'INV-2', amount: '20.00', currency: 'EUR' },
    ]);
    expect(r.matched).toBe(4);
    expect(r.mismatches).toEqual([]);
    expect(r.missing_locally.map((x) => x.external_id)).toEqual(['X-P9']);
    expect(r.missing_in_provider.map((d) => d.number)).toEqual(['PAY-3']);
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

  it('a currency that differs is a mismatch of its own type; a second record of one document is missing locally', () => {
    const documents = [
      doc({ number: 'PAY-1', amount: '100.00', external_refs: { tallybook: 'T-1' } }),
      doc({ number: 'PAY-2', amount: '100.00' }),
    ];
    const r = compareRecords('ledgerly', documents, [
      // Another adapter's reference does not match: the number does.
      { external_id: 'T-1', document_type: 'payment', number: 'PAY-1', amount: '100.00', currency: 'USD' },
      { external_id: 'L-9', document_type: 'payment', number: 'PAY-1', amount: '100.00', currency: 'EUR' },
      { external_id: 'L-2', document_type: 'payment', number: 'PAY-2', amount: '100.000', currency: 'EUR' },
    ]);
    expect(r.matched).toBe(1);
    expect(r.mismatches.map((m) => [m.document.number, m.record.external_id])).toEqual([['PAY-1', 'T-1']]);
    expect(r.missing_locally.map((x) => x.external_id)).toEqual(['L-9']);
    expect(r.missing_in_provider).toEqual([]);
    const run = {
      id: 'r1',
      tenant_id: 't1',
      connection_id: 'c1',
      adapter_key: 'ledgerly',
      rule_set: 'payment_reconciliation',
    } as ReconciliationRun;
    const e = mismatchException(run, r.mismatches[0]!, NOW.toISOString());
    expect(e).toEqual({
      id: e.id,
      tenant_id: 't1',
      exception_type: 'reconciliation.currency_mismatch',
      severity: 'warning',
      status: 'open',
      subject_type: 'document',
      subject_id: 'd-PAY-1',
      title: 'payment PAY-1: 100.00 EUR here, 100.00 USD at ledgerly',
      summary: 'The ledgerly record T-1 of payment PAY-1 does not agree with the document.',
      impact_json: JSON.stringify({ document_amount: '100.00', provider_amount: '100.00' }),
      evidence_json: JSON.stringify({
        rule_set: 'payment_reconciliation',
        run_id: 'r1',
        connection_id: 'c1',
        adapter_key: 'ledgerly',
        document: { id: 'd-PAY-1', number: 'PAY-1', amount: '100.00', currency: 'EUR' },
        provider_record: r.mismatches[0]!.record,
      }),
      observation_ids: [],
      escalation: null,
      detected_at: NOW.toISOString(),
      created_at: NOW.toISOString(),
      updated_at: NOW.toISOString(),
      resolved_at: null,
    });
    // The id names the mismatch: another currency, connection or tenant is another exception.
    const usd = r.mismatches[0]!;
    const gbp = { ...usd, record: { ...usd.record, currency: 'GBP' } };
    expect(mismatchException(run, gbp, NOW.toISOString()).id).not.toBe(e.id);
    expect(mismatchException({ ...run, connection_id: 'c2' }, usd, NOW.toISOString()).id).not.toBe(e.id);
    expect(mismatchException({ ...run, tenant_id: 't2' }, usd, NOW.toISOString()).id).not.toBe(e.id);
    const docChanged = { ...usd, document: { ...usd.document, amount: '100.50' } };
    expect(mismatchException(run, docChanged, NOW.toISOString()).id).not.toBe(e.id);
  });
});
