import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectionStore } from '#functions/adapters/connection-store';
import type { Db } from '#functions/adapters/dynamo';
import { toOutboxEvent } from '#functions/adapters/outbox';
import { providerReader } from '#functions/adapters/provider-reader';
import { hubStore } from '#functions/adapters/hub-store';
import { notificationStore } from '#functions/adapters/notification-store';
import type { createStores } from '#functions/adapters/stores';
import { auditEvent } from '#shared/domain/audit';
import { adapterByKey } from '#shared/domain/integrations/adapters/index';
import { runDiagnostics } from '#shared/domain/integrations/diagnostics';
import type { Connection } from '#shared/domain/integrations/ports';
import { mappingPreview, repairPreview } from '#shared/domain/integrations/previews';
import { NotFoundError, ValidationError } from '#shared/kernel/errors';
import { EVENT_KINDS } from '#shared/kernel/names';
import { newId, systemClock } from '#shared/kernel/ids';
import { ProviderSandbox } from '#local/provider-sandbox';
import { freshDb } from '#tests/support/db';
import { drain, principal } from '#tests/support/fixtures';

/**
 * The hub's diagnostics and previews over DynamoDB Local, with the provider sandbox on loopback
 * as the provider (docs/api.md section 9.3): what each check says, what a failing run records and
 * opens, and what the repair preview proposes for each problem.
 */

let db: Db;
let stores: ReturnType<typeof createStores>;
const sandbox = new ProviderSandbox();
beforeAll(async () => {
  process.env.OPS_LOCAL_QUIET = '1';
  ({ db, stores } = await freshDb());
  await sandbox.listen();
});
afterAll(() => sandbox.stop());

const manager = principal('manager-1', {}, true);
const newTenant = () => `t-${newId().slice(-12)}`;
const gateway = (providerUrl: string | undefined) =>
  providerReader({ providerUrl, timeoutMs: 2000, region: undefined, endpoints: {}, allowLoopback: false });
/** `sandboxed: false`: no provider URL, as in the cloud, where an endpoint with no region cannot be named. */
const deps = (sandboxed = true) => ({
  connections: connectionStore(db),
  hub: hubStore(db),
  provider: gateway(sandboxed ? `${sandbox.url}/providers` : undefined),
  clock: systemClock,
});
const ledgerly = adapterByKey('ledgerly')!;

/** A connection as the store holds it, whatever the checks on create would say of it. */
async function stored(tenantId: string, c: Partial<Connection>): Promise<Connection> {
  const now = new Date().toISOString();
  const connection: Connection = {
    id: newId(),
    tenant_id: tenantId,
    adapter_key: 'ledgerly',
    category: 'accounting',
    name: 'Books',
    status: 'active',
    scopes: [...ledgerly.scopes.default],
    config: { ...ledgerly.config_example },
    mapping: { ...ledgerly.mapping_example },
    secret_configured: true,
    created_at: now,
    updated_at: now,
    ...c,
  };
  const audit = auditEvent(systemClock, {
    tenant_id: tenantId,
    event_type: 'integration_connection.created',
    actor_id: null,
    entity_type: 'integration_connection',
    entity_id: connection.id,
    summary: 'test setup',
  });
  expect(await connectionStore(db).create(connection, audit)).toBe('written');
  return connection;
}

const email = adapterByKey('email')!;
const BROKEN = {
  config: { ...ledgerly.config_example, region: 'mars' },
  secret_configured: false,
  scopes: ['invoices.write', 'ledger.delete'],
  mapping: { number: 'InvoiceNumber' },
};
const MISSING_KEYS = 'counterparty, amount, currency, issued_on, account_code';
const CHECKS = [
  {
    id: 'config_complete',
    status: 'fail',
    issue_code: 'config_invalid',
    message:
      'config does not match the adapter config_schema: config.region expected one of "eu", "us", "au"',
    next_action:
      "PATCH the connection's config (GET /adapters/ledgerly shows config_schema and config_example)",
  },
  {
    id: 'secret_present',
    status: 'fail',
    issue_code: 'secret_missing',
    message: 'no secret is set (oauth2_client_credentials: client_id, client_secret)',
    next_action: 'PATCH the connection with secret {client_id, client_secret}',
  },
  {
    id: 'scopes_allowed',
    status: 'fail',
    issue_code: 'scope_not_supported',
    message: 'scopes the adapter does not support: ledger.delete',
    next_action: `PATCH scopes to a subset of ${ledgerly.scopes.supported.join(', ')}`,
  },
  {
    id: 'mapping_keys_present',
    status: 'fail',
    issue_code: 'mapping_incomplete',
    message: `required mapping keys missing: ${MISSING_KEYS}`,
    next_action: `PATCH mapping with ${MISSING_KEYS} (mapping_example shows the provider paths; POST .../mapping-preview tries them)`,
  },
];
const PROBE_FAILED = {
  id: 'provider_reachable',
  status: 'fail',
  issue_code: 'provider_unreachable',
  message: 'the provider did not answer: HTTP 503',
  next_action: "check the provider's status and the connection's config, then run the diagnostics again",
};
const CODES = [
  'config_invalid',
  'secret_missing',
  'scope_not_supported',
  'mapping_incomplete',
  'provider_unreachable',
];

const auditOf = (tenantId: string, entityType: string) =>
  drain((cursor) => stores.audit.list(tenantId, { entity_type: entityType }, { limit: 100, cursor }));
const reviewItemsOf = (tenantId: string) =>
  drain((cursor) =>
    notificationStore(db).listReviewItems(tenantId, { kind: 'integration_issue' }, { limit: 100, cursor }),
  );

/** The workflow events of a tenant in the outbox, as DynamoDB holds them. */
const workflowEventsOf = async (tenantId: string) =>
  (
    (
      await db.doc.send(
        new ScanCommand({
          TableName: db.tableName,
          FilterExpression: 'tenant_id = :t AND kind = :k',
          ExpressionAttributeValues: { ':t': tenantId, ':k': EVENT_KINDS.workflowEventRecorded },
        }),
      )
    ).Items ?? []
  ).map((i) => toOutboxEvent(i).payload as { event_type: string; entity_id: string; entity_json: string });

describe('diagnostics, check by check', () => {
  it('a run where every check fails: what each says, the failure on the health record, one issue each with its review item and audit event', async () => {
    const tenantId = newTenant();
    const c = await stored(tenantId, BROKEN);
    sandbox.scriptProvider(c.id, [503]);
    const d = await runDiagnostics(deps(), manager, tenantId, c.id);
    expect(d).toEqual({
      connection_id: c.id,
      ran_at: expect.any(String),
      checks: [...CHECKS, PROBE_FAILED],
      health: expect.objectContaining({ state: 'failing', open_issues: 5, last_failure_at: d.ran_at }),
    });
    expect(await hubStore(db).health(tenantId, c.id)).toEqual({
      last_success_at: null,
      last_failure_at: d.ran_at,
      last_failure_reason: `diagnostics: ${CODES.join(', ')}`,
      open_issue_codes: [...CODES].sort(),
    });
    const reviews = await reviewItemsOf(tenantId);
    expect(reviews.map((r) => r.subject_id).sort()).toEqual(CODES.map((code) => `${c.id}:${code}`).sort());
    const secretReview = reviews.find((r) => r.subject_id === `${c.id}:secret_missing`)!;
    expect(secretReview).toMatchObject({
      status: 'open',
      reason: 'check_failed',
      channel: null,
      detail: `${CHECKS[1]!.message}; next: ${CHECKS[1]!.next_action}`,
    });
    // What workflow rules on integration.issue_opened match: the issue, its id and its adapter.
    const opened = (await workflowEventsOf(tenantId)).filter(
      (e) => e.event_type === 'integration.issue_opened',
    );
    expect(opened.map((e) => e.entity_id).sort()).toEqual(CODES.map((code) => `${c.id}:${code}`).sort());
    const snapshot = JSON.parse(opened.find((e) => e.entity_id === `${c.id}:secret_missing`)!.entity_json);
    expect(snapshot).toMatchObject({
      id: `${c.id}:secret_missing`,
      adapter_key: 'ledgerly',
      tenant_id: tenantId,
      connection_id: c.id,
      issue_code: 'secret_missing',
      status: 'open',
      message: CHECKS[1]!.message,
      next_action: CHECKS[1]!.next_action,
      review_item_id: secretReview.id,
      times_opened: 1,
      closed_at: null,
    });
    const events = await auditOf(tenantId, 'integration_issue');
    expect(events).toHaveLength(5);
    expect(events.find((e) => e.entity_id === `${c.id}:secret_missing`)).toMatchObject({
      event_type: 'integration.issue_opened',
      actor_id: manager.user_id,
      summary: 'ledgerly connection Books: secret_missing',
      metadata_json: JSON.stringify({
        connection_id: c.id,
        adapter_key: 'ledgerly',
        issue_code: 'secret_missing',
        review_item_id: secretReview.id,
      }),
    });
  });

  it('a provider it cannot name is not probed, and a run without a failure or an answer records nothing', async () => {
    const tenantId = newTenant();
    const c = await stored(tenantId, {
      adapter_key: 'email',
      category: 'notification',
      name: 'Mail',
      scopes: [],
      config: { ...email.config_example },
      mapping: {},
      secret_configured: false,
    });
    const d = await runDiagnostics(deps(false), null, tenantId, c.id);
    expect(d.checks).toEqual([
      {
        id: 'config_complete',
        status: 'pass',
        issue_code: null,
        message: 'config matches the adapter config_schema',
        next_action: null,
      },
      {
        id: 'secret_present',
        status: 'pass',
        issue_code: null,
        message: 'no secret needed: the adapter sends under the service role',
        next_action: null,
      },
      {
        id: 'scopes_allowed',
        status: 'warn',
        issue_code: null,
        message: 'operations without their scope: send_email',
        next_action: 'add their scopes if the connection should do them',
      },
      {
        id: 'mapping_keys_present',
        status: 'pass',
        issue_code: null,
        message: 'every required mapping key is mapped',
        next_action: null,
      },
      {
        id: 'provider_reachable',
        status: 'warn',
        issue_code: null,
        message: "the provider's endpoint cannot be named (no url in the config, or no region): not probed",
        next_action:
          "set the connection's config (GET /adapters/{key} shows config_schema), then run the diagnostics again",
      },
    ]);
    expect(d.health.state).toBe('unknown');
    expect(await hubStore(db).health(tenantId, c.id)).toBeUndefined();
  });

  it('a passing run records the success and resolves the open issue with its audit event; an unattended run has no actor', async () => {
    const tenantId = newTenant();
    const c = await stored(tenantId, { secret_configured: false, scopes: [...ledgerly.scopes.supported] });
    await runDiagnostics(deps(), null, tenantId, c.id);
    const [opened] = await auditOf(tenantId, 'integration_issue');
    expect(opened).toMatchObject({ event_type: 'integration.issue_opened', actor_id: null });
    await connectionStore(db).update(
      { ...c, secret_configured: true, updated_at: new Date(Date.now() + 1).toISOString() },
      c,
      auditEvent(systemClock, {
        tenant_id: tenantId,
        event_type: 'integration_connection.updated',
        actor_id: null,
        entity_type: 'integration_connection',
        entity_id: c.id,
        summary: 'test setup',
      }),
    );
    const d = await runDiagnostics(deps(), manager, tenantId, c.id);
    expect(d.checks.map((k) => k.status)).toEqual(['pass', 'pass', 'pass', 'pass', 'pass']);
    expect(d.checks.at(-1)).toEqual({
      id: 'provider_reachable',
      status: 'pass',
      issue_code: null,
      message: 'the provider answered',
      next_action: null,
    });
    expect(d.checks[2]!.message).toBe('every scope is supported and every operation has its scope');
    expect(d.checks[1]!.message).toBe('a secret is set');
    expect(d.health).toMatchObject({ state: 'healthy', last_success_at: d.ran_at, open_issues: 0 });
    const resolved = (await auditOf(tenantId, 'integration_issue')).find(
      (e) => e.event_type === 'integration.issue_resolved',
    );
    const [review] = await reviewItemsOf(tenantId);
    expect(review).toMatchObject({ status: 'resolved' });
    expect(resolved).toMatchObject({
      actor_id: manager.user_id,
      entity_id: `${c.id}:secret_missing`,
      summary: 'ledgerly connection Books: secret_missing passed',
      metadata_json: JSON.stringify({
        connection_id: c.id,
        issue_code: 'secret_missing',
        review_item_id: review!.id,
      }),
    });
  });

  it('is 404 for a connection the tenant does not have, or whose adapter is gone', async () => {
    const tenantId = newTenant();
    await expect(runDiagnostics(deps(), manager, tenantId, newId())).rejects.toBeInstanceOf(NotFoundError);
    const gone = await stored(tenantId, { adapter_key: 'retired-adapter' });
    await expect(runDiagnostics(deps(), manager, tenantId, gone.id)).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe('the repair preview', () => {
  it('names every problem, the changes that fix them, the steps and the API calls, worst risk first', async () => {
    const tenantId = newTenant();
    const c = await stored(tenantId, BROKEN);
    sandbox.scriptProvider(c.id, [503]);
    const d = await runDiagnostics(deps(), manager, tenantId, c.id);
    const r = await repairPreview(deps(), tenantId, { connection_id: c.id });
    const base = `/tenants/${tenantId}/integration-connections/${c.id}`;
    expect(r).toEqual({
      status: 'previewed',
      tenant_id: tenantId,
      connection_id: c.id,
      generated_at: expect.any(String),
      summary: `Books (ledgerly): 5 problems (${CODES.join(', ')})`,
      problems: [
        ...CHECKS.map((k) => ({
          issue_code: k.issue_code,
          check: k.id,
          message: k.message,
          open_issue: true,
        })),
        {
          issue_code: 'provider_unreachable',
          check: 'provider_reachable',
          message: 'an open issue from the last diagnostics (provider_unreachable)',
          open_issue: true,
        },
      ],
      proposed_changes: [
        { path: 'config.region', before: 'mars', after: 'eu' },
        { path: 'secret', before: 'not set', after: 'set' },
        { path: 'scopes', before: ['invoices.write', 'ledger.delete'], after: ['invoices.write'] },
        { path: 'mapping.counterparty', before: null, after: 'Contact.Name' },
        { path: 'mapping.amount', before: null, after: 'Total' },
        { path: 'mapping.currency', before: null, after: 'CurrencyCode' },
        { path: 'mapping.issued_on', before: null, after: 'Date' },
        { path: 'mapping.account_code', before: null, after: 'LineItems[].AccountCode' },
      ],
      steps: [
        'correct the config fields named above (GET /adapters/ledgerly shows config_schema)',
        'obtain client_id, client_secret from the provider (oauth2_client_credentials)',
        'PATCH the connection with them as secret (write-only: it is never shown again)',
        'PATCH scopes without the unsupported ones',
        'try the mapping on a provider record (POST .../mapping-preview)',
        'PATCH the mapping',
        "check the provider's status page and the connection's account at the provider",
        'run the diagnostics again once the provider answers',
        'run the diagnostics again (POST .../diagnostics)',
      ],
      risk_level: 'high',
      evidence: {
        adapter_key: 'ledgerly',
        connection_status: 'active',
        secret_configured: false,
        scopes: ['invoices.write', 'ledger.delete'],
        open_issue_codes: [...CODES].sort(),
        checks: CHECKS,
        health: d.health,
      },
      api: [
        {
          method: 'PATCH',
          path: base,
          body: {
            config: { ...ledgerly.config_example, region: 'eu' },
            secret: { client_id: '<client_id>', client_secret: '<client_secret>' },
            scopes: ['invoices.write'],
            mapping: { number: 'InvoiceNumber', ...ledgerly.mapping_example, due_on: undefined },
          },
        },
        { method: 'POST', path: `${base}/diagnostics` },
      ],
    });
    // Only reads: no audit event, review item or provider call of its own.
    const calls = sandbox.providerCalls.length;
    const events = (await auditOf(tenantId, 'integration_issue')).length;
    await repairPreview(deps(), tenantId, { connection_id: c.id });
    expect(sandbox.providerCalls.length).toBe(calls);
    expect((await auditOf(tenantId, 'integration_issue')).length).toBe(events);
  });

  it('shows one issue code when asked, each with its own risk; problems nobody diagnosed yet are not open issues', async () => {
    const tenantId = newTenant();
    const c = await stored(tenantId, BROKEN);
    const only = (issue_code: (typeof CODES)[number]) =>
      repairPreview(deps(), tenantId, { connection_id: c.id, issue_code: issue_code as 'secret_missing' });
    const mapping = await only('mapping_incomplete');
    expect(mapping).toMatchObject({
      summary: 'Books (ledgerly): 1 problem (mapping_incomplete)',
      problems: [{ issue_code: 'mapping_incomplete', check: 'mapping_keys_present', open_issue: false }],
      risk_level: 'low',
      evidence: expect.objectContaining({ open_issue_codes: [] }),
    });
    expect(mapping.api[0]!.body).toEqual({
      mapping: { number: 'InvoiceNumber', ...ledgerly.mapping_example, due_on: undefined },
    });
    expect((await only('scope_not_supported')).risk_level).toBe('medium');
    expect((await only('config_invalid')).risk_level).toBe('medium');
    expect((await only('secret_missing')).risk_level).toBe('high');
    const none = await only('provider_unreachable');
    expect(none).toMatchObject({
      summary: 'Books (ledgerly): nothing to repair',
      problems: [],
      proposed_changes: [],
      steps: [],
      risk_level: 'none',
      api: [],
    });
  });

  it('proposes the default scopes when none is supported, the example for a missing or unknown config field, and only the diagnostics call when nothing is to be patched', async () => {
    const tenantId = newTenant();
    const { region: _region, ...withoutRegion } = ledgerly.config_example;
    const c = await stored(tenantId, {
      scopes: ['ledger.delete'],
      config: { ...withoutRegion, surprise: 1 },
    });
    const r = await repairPreview(deps(), tenantId, { connection_id: c.id });
    expect(r.proposed_changes).toEqual([
      { path: 'config.region', before: null, after: 'eu' },
      { path: 'config.surprise', before: 1, after: null },
      { path: 'scopes', before: ['ledger.delete'], after: [...ledgerly.scopes.default] },
    ]);
    expect(r.api[0]!.body).toEqual({
      config: { ...withoutRegion, surprise: null, region: 'eu' },
      scopes: [...ledgerly.scopes.default],
    });
    expect(r.risk_level).toBe('medium');

    const healthy = await stored(newTenant(), {});
    sandbox.scriptProvider(healthy.id, [503]);
    await runDiagnostics(deps(), manager, healthy.tenant_id, healthy.id);
    const unreachable = await repairPreview(deps(), healthy.tenant_id, { connection_id: healthy.id });
    expect(unreachable).toMatchObject({
      summary: 'Books (ledgerly): 1 problem (provider_unreachable)',
      proposed_changes: [],
      risk_level: 'high',
      api: [
        {
          method: 'POST',
          path: `/tenants/${healthy.tenant_id}/integration-connections/${healthy.id}/diagnostics`,
        },
      ],
    });
    expect(unreachable.api).toHaveLength(1);
  });

  it('is a 422 on connection_id for a connection the tenant does not have or whose adapter is gone', async () => {
    const tenantId = newTenant();
    const gone = await stored(tenantId, { adapter_key: 'retired-adapter' });
    for (const id of [newId(), gone.id]) {
      const err = await repairPreview(deps(), tenantId, { connection_id: id }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ValidationError);
      expect((err as ValidationError).errors).toEqual([
        expect.objectContaining({ path: 'connection_id', code: 'unknown_connection' }),
      ]);
    }
  });
});

describe('the mapping preview', () => {
  it("applies the connection's own mapping unless the request brings one; 404 for a connection the tenant does not have", async () => {
    const tenantId = newTenant();
    const c = await stored(tenantId, { mapping: { number: 'Ref' } });
    const sample = { Ref: 'INV-9', Total: '1.00' };
    expect(await mappingPreview(deps(), tenantId, c.id, { sample })).toMatchObject({
      mapped: { number: 'INV-9' },
      unmapped_fields: ['Total'],
    });
    expect(
      await mappingPreview(deps(), tenantId, c.id, { sample, mapping: { amount: 'Total' } }),
    ).toMatchObject({
      mapped: { amount: '1.00' },
      unmapped_fields: ['Ref'],
    });
    await expect(mappingPreview(deps(), tenantId, newId(), { sample })).rejects.toBeInstanceOf(NotFoundError);
    const gone = await stored(tenantId, { adapter_key: 'retired-adapter' });
    await expect(mappingPreview(deps(), tenantId, gone.id, { sample })).rejects.toBeInstanceOf(NotFoundError);
  });
});
