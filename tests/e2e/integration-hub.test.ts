import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { dbFor } from '#functions/adapters/dynamo';
import { tableConfig } from '#functions/config';
import { activeBackground, type Background } from '#local/background';
import { isProblem, type Seeded, seedTenant, until } from '#tests/support/e2e';
import { idle } from '#tests/support/idle';
import { startRuntime, type TestRuntime } from '#tests/support/runtime';
import { streamRecordCount } from '#tests/support/stream';

/**
 * The integration hub's second half over HTTP (docs/api.md section 9.3): diagnostics opening and
 * resolving integration issues with their review items, the review decision on them, previews
 * that persist nothing, and reconciliation runs whose mismatches become exceptions once.
 */

let rt: TestRuntime;
let a: Seeded;
let b: Seeded;
let bg: Background;
beforeAll(async () => {
  rt = await startRuntime({ OPS_LOCAL_QUIET: '1' });
  [a, b] = await Promise.all([seedTenant(rt), seedTenant(rt)]);
  bg = activeBackground()!;
}, 60_000);
afterAll(() => rt?.stop());

const LEDGERLY = {
  organisation_id: '6f1c2a44-8a3e-4b1f-9a57-2f0e4c1d9b10',
  region: 'eu',
  base_currency: 'EUR',
  sales_account_code: '200',
  payment_account_code: '090',
};
const MAPPING = {
  number: 'InvoiceNumber',
  counterparty: 'Contact.Name',
  amount: 'Total',
  currency: 'CurrencyCode',
  issued_on: 'Date',
  account_code: 'LineItems[].AccountCode',
};
const SECRET = { client_id: 'ledgerly-client-0001', client_secret: 'TOPSECRET-value-never-shown-0001' };

const connections = (s: Seeded) => `/tenants/${s.tenantId}/integration-connections`;
const ledgerly = async (s: Seeded, extra: Record<string, unknown> = {}) => {
  const r = await s.api.call('POST', connections(s), {
    token: s.members.manager.token,
    body: {
      adapter_key: 'ledgerly',
      name: `Books ${Date.now()}`,
      config: LEDGERLY,
      mapping: MAPPING,
      ...extra,
    },
  });
  expect(r.status).toBe(201);
  // One active connection per adapter: each test disables its own when done.
  return r.body.id as string;
};
const disable = (s: Seeded, id: string) =>
  s.api.call('PATCH', `${connections(s)}/${id}`, {
    token: s.members.owner.token,
    body: { status: 'disabled' },
  });
const diagnose = (s: Seeded, id: string, role: keyof Seeded['members'] = 'manager') =>
  s.api.call('POST', `${connections(s)}/${id}/diagnostics`, { token: s.members[role].token });
const reviewItems = async (s: Seeded, subject: string) =>
  (
    await s.api.call('GET', `/tenants/${s.tenantId}/review-items?kind=integration_issue&limit=100`, {
      token: s.members.support.token,
    })
  ).body.items.filter((r: { subject_id: string }) => r.subject_id === subject);
const auditOf = async (s: Seeded, entityType: string, entityId: string) =>
  (
    await s.api.call(
      'GET',
      `/tenants/${s.tenantId}/audit-events?entity_type=${entityType}&entity_id=${encodeURIComponent(entityId)}&limit=100`,
      { token: s.adminToken },
    )
  ).body.items.map((e: { event_type: string }) => e.event_type);

describe('diagnostics and integration issues', () => {
  it('a failing check opens one issue and one review item, also on a second run; a pass resolves both', async () => {
    const id = await ledgerly(a);
    const first = await diagnose(a, id);
    expect(first.status).toBe(200);
    const byId = Object.fromEntries(first.body.checks.map((c: { id: string; status: string }) => [c.id, c]));
    expect(byId.secret_present).toMatchObject({ status: 'fail', issue_code: 'secret_missing' });
    expect(byId.provider_reachable).toMatchObject({ status: 'pass', issue_code: null });
    expect(first.body.health).toMatchObject({ state: 'failing', open_issues: 1 });
    // The probe was a real request to the provider (the loopback sandbox).
    expect(
      bg.sandbox.providerCalls.filter((c) => c.connection_id === id && c.what === 'health'),
    ).toHaveLength(1);

    const subject = `${id}:secret_missing`;
    const second = await diagnose(a, id);
    expect(second.body.health.open_issues).toBe(1);
    const items = await reviewItems(a, subject);
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ status: 'open', reason: 'check_failed', kind: 'integration_issue' });
    expect(await auditOf(a, 'integration_issue', subject)).toEqual(['integration.issue_opened']);
    const read = await a.api.call('GET', `${connections(a)}/${id}`, { token: a.members.support.token });
    expect(read.body.health).toMatchObject({
      state: 'failing',
      open_issues: 1,
      reason: 'open issue: secret_missing',
    });

    await a.api.call('PATCH', `${connections(a)}/${id}`, {
      token: a.members.manager.token,
      // Scopes without payments.read (the default has it): read_payments has no scope, a warning,
      // which opens nothing.
      body: {
        secret: SECRET,
        scopes: ['invoices.write', 'payments.write', 'credit_notes.write', 'accounts.read'],
      },
    });
    const passed = await diagnose(a, id);
    expect(passed.body.checks.map((c: { status: string }) => c.status)).toEqual([
      'pass',
      'pass',
      'warn',
      'pass',
      'pass',
    ]);
    expect(passed.body.health).toMatchObject({ state: 'healthy', open_issues: 0 });
    expect((await reviewItems(a, subject)).map((r: { status: string }) => r.status)).toEqual(['resolved']);
    expect(await auditOf(a, 'integration_issue', subject)).toEqual([
      'integration.issue_resolved',
      'integration.issue_opened',
    ]);

    // Failing again after the resolution reopens the same issue, with a new review item.
    await a.api.call('PATCH', `${connections(a)}/${id}`, {
      token: a.members.manager.token,
      body: { secret: null },
    });
    expect((await diagnose(a, id)).body.health.open_issues).toBe(1);
    expect((await reviewItems(a, subject)).map((r: { status: string }) => r.status)).toEqual([
      'open',
      'resolved',
    ]);
    await disable(a, id);
  });

  it('retry on the review item runs the diagnostics again on the worker; discard closes the issue', async () => {
    const id = await ledgerly(a, { secret: SECRET });
    const subject = `${id}:provider_unreachable`;
    bg.sandbox.scriptProvider(id, [503]);
    const down = await diagnose(a, id);
    expect(down.body.checks.at(-1)).toMatchObject({ id: 'provider_reachable', status: 'fail' });
    const [item] = await reviewItems(a, subject);
    const decide = (reviewId: string, action: string, role: keyof Seeded['members'] = 'manager') =>
      a.api.call('POST', `/tenants/${a.tenantId}/review-items/${reviewId}/decision`, {
        token: a.members[role].token,
        body: { action },
      });
    const callsBefore = bg.sandbox.providerCalls.filter((c) => c.connection_id === id).length;
    const retried = await decide(item.id, 'retry');
    expect([retried.status, retried.body.status]).toEqual([200, 'retried']);
    // The worker's run reaches the provider (answering again) and records a success.
    const health = await until(async () => {
      const h = (await a.api.call('GET', `${connections(a)}/${id}`, { token: a.members.support.token })).body
        .health;
      return h.state === 'healthy' ? h : undefined;
    }, 'the connection to be healthy');
    expect(health).toMatchObject({ state: 'healthy', open_issues: 0 });
    expect(bg.sandbox.providerCalls.filter((c) => c.connection_id === id).length).toBe(callsBefore + 1);
    expect(await auditOf(a, 'review_item', item.id)).toEqual(['review_item.decided']);

    bg.sandbox.scriptProvider(id, [503]);
    await diagnose(a, id);
    const reopened = (await reviewItems(a, subject)).find((r: { status: string }) => r.status === 'open');
    const discarded = await decide(reopened.id, 'discard', 'owner');
    expect([discarded.status, discarded.body.status]).toEqual([200, 'discarded']);
    expect((await decide(reopened.id, 'retry')).status).toBe(409);
    const after = await a.api.call('GET', `${connections(a)}/${id}`, { token: a.members.support.token });
    expect(after.body.health.open_issues).toBe(0);
    await disable(a, id);
  });
});

describe('roles and tenants', () => {
  it('diagnostics and reconciliation for manager and owner; previews for everyone; other tenants 404', async () => {
    const id = await ledgerly(a, { secret: SECRET });
    for (const role of ['operator', 'accountant', 'support'] as const) {
      expect((await diagnose(a, id, role)).status).toBe(403);
      const run = await a.api.call('POST', `/tenants/${a.tenantId}/reconciliation-runs`, {
        token: a.members[role].token,
        body: { connection_id: id, rule_set: 'payment_reconciliation' },
      });
      expect(run.status).toBe(403);
      expect(
        (
          await a.api.call('GET', `/tenants/${a.tenantId}/reconciliation-runs`, {
            token: a.members[role].token,
          })
        ).status,
      ).toBe(403);
      const preview = await a.api.call('POST', `/tenants/${a.tenantId}/integration-repairs/preview`, {
        token: a.members[role].token,
        body: { connection_id: id },
      });
      expect(preview.status).toBe(200);
      const mapping = await a.api.call('POST', `${connections(a)}/${id}/mapping-preview`, {
        token: a.members[role].token,
        body: { sample: { InvoiceNumber: 'INV-1' } },
      });
      expect(mapping.status).toBe(200);
    }
    expect((await diagnose(a, id, 'owner')).status).toBe(200);
    // Tenant b's owner asking about tenant a: 404, as for a tenant that does not exist.
    const foreign = await b.api.call('POST', `${connections(a)}/${id}/diagnostics`, {
      token: b.members.owner.token,
    });
    expect([foreign.status, isProblem(foreign)]).toEqual([404, true]);
    const elsewhere = await b.api.call('POST', `/tenants/${b.tenantId}/integration-repairs/preview`, {
      token: b.members.owner.token,
      body: { connection_id: id },
    });
    expect([elsewhere.status, elsewhere.body.errors?.[0]?.code]).toEqual([422, 'unknown_connection']);
    const missing = await diagnose(a, '00000000-0000-7000-8000-000000000000');
    expect(missing.status).toBe(404);
    await disable(a, id);
  });
});

describe('previews', () => {
  it('mapping and repair previews answer and persist nothing: table, stream and queues unchanged', async () => {
    const id = await ledgerly(a, { secret: SECRET, mapping: { number: 'InvoiceNumber' } });
    const db = dbFor(tableConfig());
    const scan = async () =>
      ((await db.doc.send(new ScanCommand({ TableName: tableConfig().tableName }))).Items ?? []).sort(
        (x, y) => `${x.pk}${x.sk}`.localeCompare(`${y.pk}${y.sk}`),
      );
    // The connection's own outbox events relayed (marking them writes), so the table holds still.
    await idle();
    const before = await scan();
    const streamBefore = await streamRecordCount(tableConfig().tableName!);
    // The connection's own writes are on the stream: the count can tell a write.
    expect(streamBefore).toBeGreaterThan(0);
    const sends = [...bg.queues.queues.values()].map((q) => vi.spyOn(q, 'send'));

    const mapping = await a.api.call('POST', `${connections(a)}/${id}/mapping-preview`, {
      token: a.members.support.token,
      body: {
        sample: {
          InvoiceNumber: 'INV-7',
          Contact: { Name: 'Globex', Email: 'ap@globex.example' },
          Total: '120.00',
          LineItems: [{ AccountCode: '200', Description: 'Hours' }],
        },
        mapping: {
          number: 'InvoiceNumber',
          counterparty: 'Contact.Name',
          account_code: 'LineItems[].AccountCode',
          due_on: 'DueDate',
        },
      },
    });
    expect(mapping.status).toBe(200);
    expect(mapping.body).toEqual({
      mapped: { number: 'INV-7', counterparty: 'Globex', account_code: ['200'] },
      missing_required_keys: ['amount', 'currency', 'issued_on'],
      unmapped_fields: ['Contact.Email', 'LineItems[].Description', 'Total'],
      warnings: ['due_on: the sample has nothing at DueDate'],
    });

    const repair = await a.api.call('POST', `/tenants/${a.tenantId}/integration-repairs/preview`, {
      token: a.members.operator.token,
      body: { connection_id: id },
    });
    expect(repair.status).toBe(200);
    expect(repair.body).toMatchObject({
      status: 'previewed',
      tenant_id: a.tenantId,
      connection_id: id,
      risk_level: 'low',
      problems: [{ issue_code: 'mapping_incomplete', check: 'mapping_keys_present', open_issue: false }],
    });
    expect(repair.body.proposed_changes).toContainEqual({
      path: 'mapping.amount',
      before: null,
      after: 'Total',
    });
    expect(repair.body.api[0]).toMatchObject({
      method: 'PATCH',
      body: { mapping: { number: 'InvoiceNumber', amount: 'Total' } },
    });
    expect(repair.body.evidence.secret_configured).toBe(true);
    expect(JSON.stringify(repair.body)).not.toContain(SECRET.client_secret);
    expect(JSON.stringify(repair.body)).not.toContain(SECRET.client_id);

    await idle();
    expect(await scan()).toEqual(before);
    expect(await streamRecordCount(tableConfig().tableName!)).toBe(streamBefore);
    for (const send of sends) expect(send).not.toHaveBeenCalled();
    for (const send of sends) send.mockRestore();
    await disable(a, id);
  });
});

describe('reconciliation runs', () => {
  const document = async (s: Seeded, number: string, amount: string) => {
    const created = await s.api.call('POST', `/tenants/${s.tenantId}/documents`, {
      token: s.members.manager.token,
      body: {
        document_type: 'payment',
        number,
        counterparty: 'Globex Ltd',
        currency: 'EUR',
        amount,
        issued_on: '2026-01-31',
      },
    });
    expect(created.status).toBe(201);
    const opened = await s.api.call('POST', `/tenants/${s.tenantId}/documents/${created.body.id}/status`, {
      token: s.members.manager.token,
      body: { status: 'open' },
    });
    expect(opened.status).toBe(200);
    return created.body.id as string;
  };
  const run = async (s: Seeded, connectionId: string) => {
    const queued = await s.api.call('POST', `/tenants/${s.tenantId}/reconciliation-runs`, {
      token: s.members.owner.token,
      body: { connection_id: connectionId, rule_set: 'payment_reconciliation' },
    });
    expect([queued.status, queued.body.status]).toEqual([202, 'queued']);
    return until(async () => {
      const run = (
        await s.api.call('GET', `/tenants/${s.tenantId}/reconciliation-runs/${queued.body.id}`, {
          token: s.members.manager.token,
        })
      ).body;
      return run.status !== 'queued' ? run : undefined;
    }, `reconciliation run ${queued.body.id} to finish`);
  };
  const exceptions = async (s: Seeded) =>
    (
      await s.api.call('GET', `/tenants/${s.tenantId}/exceptions?limit=100`, {
        token: s.members.manager.token,
      })
    ).body.items.filter((e: { exception_type: string }) => e.exception_type.startsWith('reconciliation.'));

  it('records the counts, and a mismatch becomes one exception, also after a second run', async () => {
    const id = await ledgerly(b, { secret: SECRET });
    const matched = await document(b, 'PAY-1001', '250.00');
    const mismatched = await document(b, 'PAY-1002', '240.00');
    await document(b, 'PAY-1003', '80.00');
    bg.sandbox.setProviderRecords(id, [
      { external_id: 'p-1', document_type: 'payment', number: 'PAY-1001', amount: '250', currency: 'EUR' },
      { external_id: 'p-2', document_type: 'payment', number: 'PAY-1002', amount: '245.00', currency: 'EUR' },
      { external_id: 'p-9', document_type: 'payment', number: 'PAY-9999', amount: '10.00', currency: 'EUR' },
    ]);
    const first = await run(b, id);
    expect(first).toMatchObject({
      status: 'completed',
      matched: 1,
      mismatched: 1,
      missing_in_provider: 1,
      missing_locally: 1,
      error: null,
    });
    expect(first.exception_ids).toHaveLength(1);
    const [exception] = await exceptions(b);
    expect(exception).toMatchObject({
      id: first.exception_ids[0],
      exception_type: 'reconciliation.amount_mismatch',
      subject_type: 'document',
      subject_id: mismatched,
    });
    expect(JSON.parse(exception.evidence_json)).toMatchObject({
      document: { id: mismatched, amount: '240.00' },
      provider_record: { external_id: 'p-2', amount: '245.00' },
    });
    expect(matched).not.toBe(mismatched);

    const second = await run(b, id);
    expect(second).toMatchObject({ status: 'completed', mismatched: 1, exception_ids: first.exception_ids });
    expect(await exceptions(b)).toHaveLength(1);
    const list = await b.api.call('GET', `/tenants/${b.tenantId}/reconciliation-runs?connection_id=${id}`, {
      token: b.members.owner.token,
    });
    expect(list.body.items.map((r: { id: string }) => r.id)).toEqual([second.id, first.id]);
    // The run's provider read counts for the connection's health.
    const read = await b.api.call('GET', `${connections(b)}/${id}`, { token: b.members.support.token });
    expect(read.body.health.state).toBe('healthy');
    await disable(b, id);
  });

  it('refuses a connection that holds no payments, and an unknown rule set', async () => {
    const email = await b.api.call('POST', connections(b), {
      token: b.members.manager.token,
      body: { adapter_key: 'email', name: 'Mail', config: { from_address: 'ops@acme.example' } },
    });
    const r = await b.api.call('POST', `/tenants/${b.tenantId}/reconciliation-runs`, {
      token: b.members.manager.token,
      body: { connection_id: email.body.id, rule_set: 'payment_reconciliation' },
    });
    expect([r.status, r.body.errors[0].code]).toEqual([422, 'not_reconcilable']);
    const wrongRuleSet = await b.api.call('POST', `/tenants/${b.tenantId}/reconciliation-runs`, {
      token: b.members.manager.token,
      body: { connection_id: email.body.id, rule_set: 'other' },
    });
    expect([wrongRuleSet.status, wrongRuleSet.body.errors[0].path]).toEqual([422, 'rule_set']);
    await disable(b, email.body.id);
  });
});
