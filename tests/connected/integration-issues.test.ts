import { QueryCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '#functions/adapters/dynamo';
import { toOutboxEvent } from '#functions/adapters/outbox';
import { notificationStore } from '#functions/adapters/notification-store';
import { hubStore } from '#functions/adapters/hub-store';
import { reconciliationStore } from '#functions/adapters/reconciliation-store';
import type { createStores } from '#functions/adapters/stores';
import { createDocument, changeDocumentStatus } from '#shared/domain/documents/use-cases';
import { runDiagnostics } from '#shared/domain/integrations/diagnostics';
import { decideIntegrationIssue } from '#shared/domain/integrations/review';
import { runReconciliation } from '#shared/domain/integrations/reconciliation';
import { requestReconciliation } from '#shared/domain/integrations/reconciliation-requests';
import { createConnection, updateConnection } from '#shared/domain/integrations/connections';
import type { OutboxEvent } from '#shared/domain/outbox';
import { EVENT_KINDS } from '#shared/kernel/names';
import { InvalidTransitionError } from '#shared/kernel/errors';
import { newId, systemClock } from '#shared/kernel/ids';
import { integrationIssue } from '#shared/table/entities/integration-issue';
import { ProviderSandbox } from '#local/provider-sandbox';
import { hubDeps, LEDGERLY_REQUEST, LEDGERLY_SECRET } from '#tests/support/connections';
import { freshDb } from '#tests/support/db';
import { drain, principal } from '#tests/support/fixtures';

/**
 * Integration issues and reconciliation exceptions over DynamoDB Local, with the provider
 * sandbox on loopback as the provider: one open issue per connection and code however many
 * failing runs (also concurrent ones), reopened rather than duplicated; one exception per
 * mismatch however many runs.
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
const deps = () => hubDeps(db, stores, `${sandbox.url}/providers`);
const LEDGERLY = LEDGERLY_REQUEST;
const SECRET = LEDGERLY_SECRET;

/** Every issue item of the tenant, as DynamoDB holds it. */
const issueItems = async (tenantId: string) =>
  (
    await db.doc.send(
      new QueryCommand({
        TableName: db.tableName,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: {
          ':pk': integrationIssue.query('table', { tenant_id: tenantId }).partition,
        },
      }),
    )
  ).Items ?? [];
const reviewItemsOf = (tenantId: string) =>
  drain((cursor) =>
    notificationStore(db).listReviewItems(tenantId, { kind: 'integration_issue' }, { limit: 100, cursor }),
  );

describe('integration issues over DynamoDB Local', () => {
  it('two failing runs, even at once, leave one open issue with one review item', async () => {
    const tenantId = newTenant();
    const c = await createConnection(deps(), manager, tenantId, LEDGERLY);
    const [one, two] = await Promise.all([
      runDiagnostics(deps(), manager, tenantId, c.id),
      runDiagnostics(deps(), manager, tenantId, c.id),
    ]);
    await runDiagnostics(deps(), manager, tenantId, c.id);
    expect([one.health.open_issues, two.health.open_issues]).toEqual([1, 1]);
    const issues = await issueItems(tenantId);
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({ issue_code: 'secret_missing', status: 'open', times_opened: 1 });
    const reviews = await reviewItemsOf(tenantId);
    expect(reviews.map((r) => [r.subject_id, r.status])).toEqual([[`${c.id}:secret_missing`, 'open']]);
    expect(issues[0]!.review_item_id).toBe(reviews[0]!.id);
  });

  it('a pass resolves the issue and its review item; failing again reopens the same issue', async () => {
    const tenantId = newTenant();
    const c = await createConnection(deps(), manager, tenantId, LEDGERLY);
    await runDiagnostics(deps(), manager, tenantId, c.id);
    await updateConnection(deps(), manager, tenantId, c.id, { secret: SECRET });
    const passed = await runDiagnostics(deps(), manager, tenantId, c.id);
    expect(passed.health).toMatchObject({ state: 'healthy', open_issues: 0 });
    expect((await issueItems(tenantId))[0]).toMatchObject({ status: 'resolved', times_opened: 1 });
    expect((await reviewItemsOf(tenantId)).map((r) => r.status)).toEqual(['resolved']);

    await updateConnection(deps(), manager, tenantId, c.id, { secret: null });
    await runDiagnostics(deps(), manager, tenantId, c.id);
    const issues = await issueItems(tenantId);
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({ status: 'open', times_opened: 2 });
    const reviews = await reviewItemsOf(tenantId);
    expect(reviews.map((r) => r.status).sort()).toEqual(['open', 'resolved']);
    expect(issues[0]!.review_item_id).toBe(reviews.find((r) => r.status === 'open')!.id);
  });

  it('a review decision closes the issue once: the losing one of two racing decisions is refused', async () => {
    const tenantId = newTenant();
    const c = await createConnection(deps(), manager, tenantId, LEDGERLY);
    await runDiagnostics(deps(), manager, tenantId, c.id);
    const [review] = await reviewItemsOf(tenantId);
    const decide = (action: 'retry' | 'discard') =>
      decideIntegrationIssue({ issues: hubStore(db), clock: systemClock }, manager, review!, { action });
    const outcomes = await Promise.allSettled([decide('retry'), decide('discard')]);
    expect(outcomes.map((o) => o.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect((await issueItems(tenantId))[0]).toMatchObject({ status: 'closed' });
    expect((await hubStore(db).health(tenantId, c.id))?.open_issue_codes).toEqual([]);
  });
});

/** The outbox items that ask for a connection's diagnostics again, as DynamoDB holds them. */
const rerunsOf = async (tenantId: string) =>
  (
    (
      await db.doc.send(
        new ScanCommand({
          TableName: db.tableName,
          FilterExpression: 'tenant_id = :t AND kind = :k',
          ExpressionAttributeValues: { ':t': tenantId, ':k': EVENT_KINDS.integrationDiagnosticsRequested },
        }),
      )
    ).Items ?? []
  )
    .map(toOutboxEvent)
    .map((e) => ({ idempotency_key: e.idempotency_key, payload: e.payload }));

describe('deciding an integration issue review item', () => {
  const issueDeps = () => ({ issues: hubStore(db), clock: systemClock });

  it('retry closes the issue and asks for the diagnostics again through the outbox; discard asks for nothing', async () => {
    const tenantId = newTenant();
    const c = await createConnection(deps(), manager, tenantId, LEDGERLY);
    await runDiagnostics(deps(), manager, tenantId, c.id);
    const [review] = await reviewItemsOf(tenantId);
    const decided = await decideIntegrationIssue(issueDeps(), manager, review!, {
      action: 'retry',
      note: 'fixed it',
    });
    expect(decided).toMatchObject({
      id: review!.id,
      status: 'retried',
      decision: 'retry',
      note: 'fixed it',
      decided_by: manager.user_id,
    });
    expect(await rerunsOf(tenantId)).toEqual([
      {
        idempotency_key: `integration-diagnostics:${tenantId}:${review!.id}`,
        payload: { connection_id: c.id },
      },
    ]);
    expect((await issueItems(tenantId))[0]).toMatchObject({
      status: 'closed',
      closed_at: decided.decided_at,
    });
    const events = await drain((cursor) =>
      stores.audit.list(
        tenantId,
        { entity_type: 'review_item', entity_id: review!.id },
        { limit: 100, cursor },
      ),
    );
    expect(events.map((e) => [e.event_type, e.summary])).toEqual([
      ['review_item.decided', `retry integration issue ${c.id}:secret_missing`],
    ]);

    // A decided item's issue is no longer open: a second decision is refused, and writes nothing.
    await expect(
      decideIntegrationIssue(issueDeps(), manager, review!, { action: 'discard' }),
    ).rejects.toBeInstanceOf(InvalidTransitionError);

    const other = newTenant();
    const d = await createConnection(deps(), manager, other, LEDGERLY);
    await runDiagnostics(deps(), manager, other, d.id);
    const [discarded] = await reviewItemsOf(other);
    expect(
      await decideIntegrationIssue(issueDeps(), manager, discarded!, { action: 'discard' }),
    ).toMatchObject({ status: 'discarded', note: null });
    expect(await rerunsOf(other)).toEqual([]);
  });

  it("refuses an item that is not the open issue's own, and an item of no issue", async () => {
    const tenantId = newTenant();
    const c = await createConnection(deps(), manager, tenantId, LEDGERLY);
    await runDiagnostics(deps(), manager, tenantId, c.id);
    const [review] = await reviewItemsOf(tenantId);
    for (const stale of [
      { ...review!, id: newId() },
      { ...review!, subject_id: `${c.id}:config_invalid` },
    ]) {
      const err = await decideIntegrationIssue(issueDeps(), manager, stale, { action: 'retry' }).catch(
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(InvalidTransitionError);
      expect((err as Error).message).toBe('The issue of this review item is no longer open.');
    }
    expect((await issueItems(tenantId))[0]).toMatchObject({ status: 'open' });
    expect(await rerunsOf(tenantId)).toEqual([]);
  });
});

describe('reconciliation exceptions over DynamoDB Local', () => {
  it('a mismatch becomes one exception across runs and redeliveries', async () => {
    const tenantId = newTenant();
    const c = await createConnection(deps(), manager, tenantId, { ...LEDGERLY, secret: SECRET });
    const payment = await createDocument(
      { documents: stores.documents, clock: systemClock },
      manager,
      tenantId,
      {
        document_type: 'payment',
        number: 'PAY-1002',
        counterparty: 'Globex Ltd',
        currency: 'EUR',
        amount: '240.00',
        issued_on: '2026-01-31',
      },
    );
    await changeDocumentStatus(
      { documents: stores.documents, zones: stores.zones, clock: systemClock },
      manager,
      tenantId,
      payment.id,
      { status: 'open' },
    );
    const runOnce = async () => {
      const run = await requestReconciliation(deps(), manager, tenantId, {
        connection_id: c.id,
        rule_set: 'payment_reconciliation',
      });
      const event: OutboxEvent = {
        event_id: newId(),
        kind: EVENT_KINDS.reconciliationRunRequested,
        tenant_id: tenantId,
        idempotency_key: `reconciliation:${tenantId}:${run.id}`,
        occurred_at: run.created_at,
        payload: { run_id: run.id },
      };
      // The same message delivered twice at once: one finishes the run, both find the one exception.
      await Promise.all([runReconciliation(deps(), event, 1), runReconciliation(deps(), event, 1)]);
      return (await reconciliationStore(db).get(tenantId, run.id))!;
    };
    const first = await runOnce();
    const second = await runOnce();
    expect(first).toMatchObject({ status: 'completed', mismatched: 1, matched: 0, missing_locally: 1 });
    expect(second.exception_ids).toEqual(first.exception_ids);
    const exceptions = await drain((cursor) => stores.exceptions.list(tenantId, {}, { limit: 100, cursor }));
    expect(exceptions.map((e) => [e.id, e.exception_type, e.subject_id])).toEqual([
      [first.exception_ids[0], 'reconciliation.amount_mismatch', payment.id],
    ]);
  });
});
