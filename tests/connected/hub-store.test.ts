import { BatchGetCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '#functions/adapters/dynamo';
import { hubStore } from '#functions/adapters/hub-store';
import { reconciliationStore } from '#functions/adapters/reconciliation-store';
import type { IntegrationIssue, ReconciliationRun } from '#shared/domain/integrations/ports';
import type { ReviewItem } from '#shared/domain/notifications/ports';
import { newId } from '#shared/kernel/ids';
import { freshDb } from '#tests/support/db';
import { audit, drain } from '#tests/support/fixtures';
import { outboxEvent } from '#tests/support/outbox';

/**
 * The integration hub's store (functions/adapters/hub-store.ts) over DynamoDB Local: health
 * records read one by one and in a batch (unprocessed keys asked again, never dropped), an issue
 * opened once while open and reopened with its count, ended only with its own open review item,
 * the health record's open codes following both; reconciliation runs
 * (functions/adapters/reconciliation-store.ts) created, filtered and finished only while queued.
 */

let db: Db;
let hub: ReturnType<typeof hubStore>;
let runs: ReturnType<typeof reconciliationStore>;
beforeAll(async () => {
  ({ db } = await freshDb());
  hub = hubStore(db);
  runs = reconciliationStore(db);
});

const newTenant = () => `t-${newId().slice(-12)}`;
const at = (s: number) => new Date(Date.UTC(2031, 0, 1, 0, 0, s)).toISOString();

const reviewFor = (tenantId: string, subject: string, o: Partial<ReviewItem> = {}): ReviewItem => ({
  id: newId(),
  tenant_id: tenantId,
  notification_id: null,
  channel: null,
  kind: 'integration_issue',
  subject_id: subject,
  reason: 'check_failed',
  detail: 'secret missing',
  status: 'open',
  decision: null,
  note: null,
  decided_by: null,
  decided_at: null,
  created_at: at(0),
  updated_at: at(0),
  ...o,
});

const opening = (tenantId: string, connectionId: string, code: IntegrationIssue['issue_code'], s = 0) => {
  const review = reviewFor(tenantId, `${connectionId}:${code}`);
  const issue: IntegrationIssue = {
    tenant_id: tenantId,
    connection_id: connectionId,
    issue_code: code,
    status: 'open',
    message: `the ${code} check failed`,
    next_action: 'fix it',
    review_item_id: review.id,
    times_opened: 1,
    opened_at: at(s),
    closed_at: null,
    updated_at: at(s),
  };
  return {
    issue,
    review,
    audit: audit(tenantId, 'integration_issue', connectionId),
    outbox: outboxEvent('in_app', { tenantId }),
  };
};

describe('health records', () => {
  it('a connection never checked has none; results fill in success and failure', async () => {
    const t = newTenant();
    expect(await hub.health(t, 'c1')).toBeUndefined();
    await hub.recordResult(t, 'c1', { ok: true, at: at(1) });
    expect(await hub.health(t, 'c1')).toEqual({
      last_success_at: at(1),
      last_failure_at: null,
      last_failure_reason: null,
      open_issue_codes: [],
    });
    await hub.recordResult(t, 'c1', { ok: false, at: at(2), reason: 'http_503' });
    expect(await hub.health(t, 'c1')).toEqual({
      last_success_at: at(1),
      last_failure_at: at(2),
      last_failure_reason: 'http_503',
      open_issue_codes: [],
    });
  });

  it('reads several connections in one batch; those without a record are absent', async () => {
    const t = newTenant();
    await hub.recordResult(t, 'a', { ok: true, at: at(1) });
    await hub.recordResult(t, 'b', { ok: false, at: at(2), reason: 'timeout' });
    await hub.recordResult(newTenant(), 'c', { ok: true, at: at(3) });
    const found = await hub.healthOf(t, ['a', 'b', 'c']);
    expect([...found.keys()].sort()).toEqual(['a', 'b']);
    expect(found.get('b')?.last_failure_reason).toBe('timeout');
    expect((await hub.healthOf(t, [])).size).toBe(0);
  });

  it('asks again for keys the batch left unprocessed, and fails rather than drop them', async () => {
    const t = newTenant();
    await hub.recordResult(t, 'a', { ok: true, at: at(1) });
    await hub.recordResult(t, 'b', { ok: true, at: at(2) });
    const real = await hub.healthOf(t, ['a', 'b']);
    const item = (id: string) => ({ connection_id: id, last_success_at: real.get(id)!.last_success_at });
    const keyOf = (id: string) => ({ pk: `unprocessed-${id}`, sk: 'x' });

    const mock = mockClient(db.doc);
    try {
      mock
        .on(BatchGetCommand)
        .resolvesOnce({
          Responses: { [db.tableName]: [item('a')] },
          UnprocessedKeys: { [db.tableName]: { Keys: [keyOf('b')] } },
        })
        .resolvesOnce({ Responses: { [db.tableName]: [item('b')] } });
      const found = await hub.healthOf(t, ['a', 'b']);
      expect([...found.keys()].sort()).toEqual(['a', 'b']);
      const calls = mock.commandCalls(BatchGetCommand);
      expect(calls).toHaveLength(2);
      expect(calls[1]!.args[0].input.RequestItems![db.tableName]).toEqual({
        Keys: [keyOf('b')],
        ConsistentRead: true,
      });

      // Three answers that each leave a key unprocessed: an error, not a missing record.
      mock.reset();
      mock.on(BatchGetCommand).resolves({ UnprocessedKeys: { [db.tableName]: { Keys: [keyOf('b')] } } });
      await expect(hub.healthOf(t, ['b'])).rejects.toThrow('health records left unprocessed');
      expect(mock.commandCalls(BatchGetCommand)).toHaveLength(3);

      // An answer with nothing but unprocessed keys (no Responses at all), then the records.
      mock.reset();
      mock
        .on(BatchGetCommand)
        .resolvesOnce({ UnprocessedKeys: { [db.tableName]: { Keys: [keyOf('a')] } } })
        .resolvesOnce({ Responses: { [db.tableName]: [item('a')] } });
      expect([...(await hub.healthOf(t, ['a'])).keys()]).toEqual(['a']);
    } finally {
      mock.restore();
    }
  });
});

describe('integration issues', () => {
  it('opens once while open, ends with its own review item only, reopens counting', async () => {
    const t = newTenant();
    const first = opening(t, 'c1', 'secret_missing');
    expect(await hub.openIssue(first)).toBe(true);
    expect(await hub.getIssue(t, 'c1', 'secret_missing')).toEqual(first.issue);
    expect(await hub.getReviewItem(t, first.review.id)).toEqual(first.review);
    expect((await hub.health(t, 'c1'))?.open_issue_codes).toEqual(['secret_missing']);

    // Open already: refused, nothing written (the second review item does not exist).
    const again = opening(t, 'c1', 'secret_missing', 5);
    expect(await hub.openIssue(again)).toBe(false);
    expect(await hub.getReviewItem(t, again.review.id)).toBeUndefined();
    expect((await hub.getIssue(t, 'c1', 'secret_missing'))?.review_item_id).toBe(first.review.id);

    const other = opening(t, 'c1', 'config_invalid');
    expect(await hub.openIssue(other)).toBe(true);
    expect((await hub.health(t, 'c1'))?.open_issue_codes).toEqual(['config_invalid', 'secret_missing']);

    // Ending it with another review item: refused.
    const closed = { ...first.issue, status: 'closed' as const, closed_at: at(9), updated_at: at(9) };
    const decided = { ...first.review, status: 'discarded' as const, updated_at: at(9) };
    expect(await hub.endIssue(closed, { ...decided, id: again.review.id }, audit(t), null)).toBe(false);
    expect(await hub.endIssue(closed, decided, audit(t), null)).toBe(true);
    expect(await hub.getIssue(t, 'c1', 'secret_missing')).toEqual(closed);
    expect((await hub.getReviewItem(t, first.review.id))?.status).toBe('discarded');
    expect((await hub.health(t, 'c1'))?.open_issue_codes).toEqual(['config_invalid']);
    // Ended already: a second end is refused.
    expect(await hub.endIssue(closed, decided, audit(t), null)).toBe(false);

    // Reopened: open again, counted twice, with the new review item.
    const reopened = opening(t, 'c1', 'secret_missing', 20);
    expect(await hub.openIssue(reopened)).toBe(true);
    expect(await hub.getIssue(t, 'c1', 'secret_missing')).toEqual({
      ...reopened.issue,
      times_opened: 2,
      closed_at: null,
    });
    expect((await hub.health(t, 'c1'))?.open_issue_codes).toEqual(['config_invalid', 'secret_missing']);
    expect(await hub.getIssue(t, 'c2', 'secret_missing')).toBeUndefined();
  });
});

describe('reconciliation runs', () => {
  const run = (tenantId: string, o: Partial<ReconciliationRun> = {}): ReconciliationRun => ({
    id: newId(),
    tenant_id: tenantId,
    connection_id: 'c1',
    adapter_key: 'ledgerly',
    rule_set: 'payments',
    status: 'queued',
    matched: 0,
    mismatched: 0,
    missing_in_provider: 0,
    missing_locally: 0,
    exception_ids: [],
    error: null,
    requested_by: 'op-1',
    created_at: at(0),
    updated_at: at(0),
    completed_at: null,
    ...o,
  });

  it('created once, read back, finished only while queued', async () => {
    const t = newTenant();
    const r = run(t);
    await runs.create(r, audit(t), outboxEvent('in_app', { tenantId: t }));
    expect(await runs.get(t, r.id)).toEqual(r);
    expect(await runs.get(t, 'nope')).toBeUndefined();
    await expect(runs.create(r, audit(t), outboxEvent('in_app', { tenantId: t }))).rejects.toThrow(
      'reconciliation run id collision',
    );
    const done = { ...r, status: 'completed' as const, matched: 3, completed_at: at(5), updated_at: at(5) };
    expect(await runs.finish(done, audit(t))).toBe(true);
    expect(await runs.get(t, r.id)).toEqual(done);
    expect(await runs.finish({ ...done, status: 'failed', error: 'late' }, audit(t))).toBe(false);
    expect((await runs.get(t, r.id))?.status).toBe('completed');
  });

  it('lists a tenant runs, by status and connection', async () => {
    const t = newTenant();
    const a = run(t, { connection_id: 'c1' });
    const b = run(t, { connection_id: 'c2' });
    const c = run(t, { connection_id: 'c1', status: 'failed' });
    for (const r of [a, b, c]) await runs.create(r, audit(t), outboxEvent('in_app', { tenantId: t }));
    await runs.create(run(newTenant()), audit(t), outboxEvent('in_app', { tenantId: t }));
    const ids = async (filter: Parameters<typeof runs.list>[1]) =>
      (await drain((cursor) => runs.list(t, filter, { limit: 1, cursor }))).map((r) => r.id).sort();
    expect(await ids({})).toEqual([a.id, b.id, c.id].sort());
    expect(await ids({ status: 'queued' })).toEqual([a.id, b.id].sort());
    expect(await ids({ connection_id: 'c1' })).toEqual([a.id, c.id].sort());
    expect(await ids({ status: 'failed', connection_id: 'c1' })).toEqual([c.id]);
  });

  it('a cursor of the list is refused for another tenant or another filter', async () => {
    const t = newTenant();
    for (const connection_id of ['c1', 'c2', 'c3'])
      await runs.create(run(t, { connection_id }), audit(t), outboxEvent('in_app', { tenantId: t }));
    const cursor = (await runs.list(t, { status: 'queued' }, { limit: 1 })).next_cursor!;
    expect(cursor).toEqual(expect.any(String));
    for (const [tenant, filter] of [
      [newTenant(), { status: 'queued' }],
      [t, {}],
      [t, { status: 'queued', connection_id: 'c1' }],
    ] as const)
      await expect(runs.list(tenant, filter, { limit: 1, cursor })).rejects.toMatchObject({
        code: 'invalid_cursor',
      });
    expect((await runs.list(t, { status: 'queued' }, { limit: 5, cursor })).items).toHaveLength(2);
  });
});
