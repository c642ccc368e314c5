import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Db, documentClient } from '#functions/adapters/dynamo';
import { transact } from '#functions/adapters/transact';
import { exceptionStore } from '#functions/adapters/exception-store';
import { backfillIndexKeys } from '#functions/adapters/index-backfill';
import type { createStores } from '#functions/adapters/stores';
import { localClient } from '#local/dynamodb-local';
import {
  changeExceptionStatus,
  createException,
  getException,
  listExceptions,
} from '#shared/domain/exceptions/use-cases';
import { InvalidTransitionError, NotFoundError } from '#shared/kernel/errors';
import { systemClock } from '#shared/kernel/ids';
import { exception } from '#shared/table/entities/exception';
import { countingQueries, dynamoEndpoint, freshDb, loadItems } from '#tests/support/db';
import { audit, drain, exceptionRecord, principal, recorded } from '#tests/support/fixtures';

let db: Db;
let stores: ReturnType<typeof createStores>;
beforeAll(async () => {
  ({ db, stores } = await freshDb());
});

const deps = () => ({ exceptions: stores.exceptions, clock: systemClock });
const actor = principal('actor-1', {}, true);
const input = (overrides: Record<string, unknown> = {}) => ({
  exception_type: 'invoice.overdue',
  subject_type: 'invoice',
  subject_id: 'INV-1',
  title: 'Overdue',
  summary: 'Invoice overdue',
  severity: 'warning' as const,
  ...overrides,
});
const auditOf = (tenantId: string, entityId?: string) =>
  drain((cursor) =>
    stores.audit.list(tenantId, entityId ? { entity_type: 'exception', entity_id: entityId } : {}, {
      limit: 100,
      cursor,
    }),
  );

describe('exception store', () => {
  it('create writes the record and its audit event together; get reads it back', async () => {
    const e = await createException(deps(), actor, 'acme', {
      ...input(),
      impact: { amount: 10 },
      observation_ids: ['o1'],
    });
    expect(e).toMatchObject({
      status: 'open',
      impact_json: '{"amount":10}',
      evidence_json: '{}',
      resolved_at: null,
    });
    expect(e.detected_at).toBe(e.created_at);
    expect(await stores.exceptions.get('acme', e.id)).toEqual(e);
    expect(await stores.exceptions.get('globex', e.id)).toBeUndefined();
    const events = await auditOf('acme', e.id);
    expect(events.map((a) => [a.event_type, a.actor_id])).toEqual([['exception.created', 'actor-1']]);
    expect(JSON.parse(events[0]!.metadata_json!)).toEqual({
      exception_type: 'invoice.overdue',
      severity: 'warning',
    });
    expect(e.observation_ids).toEqual(['o1']);
    expect((await createException(deps(), actor, 'acme', input())).observation_ids).toEqual([]);
  });

  it('a duplicate create fails and leaves no audit event', async () => {
    const rec = exceptionRecord('dup');
    await stores.exceptions.create(
      rec,
      audit('dup', 'exception', rec.id),
      recorded('exception.created', rec),
    );
    const second = audit('dup', 'exception', rec.id);
    await expect(
      stores.exceptions.create({ ...rec, title: 'Changed' }, second, recorded('exception.created', rec)),
    ).rejects.toThrow();
    expect((await stores.exceptions.get('dup', rec.id))?.title).toBe(rec.title);
    const events = await auditOf('dup', rec.id);
    expect(events.map((a) => a.id)).not.toContain(second.id);
    expect(events).toHaveLength(1);
  });

  it('transition writes the status with its audit event only if the stored status is the expected one', async () => {
    const rec = exceptionRecord('tr');
    await stores.exceptions.create(rec, audit('tr', 'exception', rec.id), recorded('exception.created', rec));
    const next = { ...rec, status: 'acknowledged' as const };
    const wrong = audit('tr', 'exception', rec.id);
    expect(
      await stores.exceptions.transition(
        next,
        'acknowledged',
        wrong,
        recorded('exception.status_changed', next),
      ),
    ).toBe(false);
    expect((await stores.exceptions.get('tr', rec.id))?.status).toBe('open');
    expect((await auditOf('tr', rec.id)).map((a) => a.id)).not.toContain(wrong.id);

    expect(
      await stores.exceptions.transition(
        next,
        'open',
        audit('tr', 'exception', rec.id),
        recorded('exception.status_changed', next),
      ),
    ).toBe(true);
    expect((await stores.exceptions.get('tr', rec.id))?.status).toBe('acknowledged');
    expect(await auditOf('tr', rec.id)).toHaveLength(2);
    // The status index moved with it.
    const open = await stores.exceptions.list('tr', { status: 'open' }, { limit: 10 });
    const acked = await stores.exceptions.list('tr', { status: 'acknowledged' }, { limit: 10 });
    expect(open.items).toEqual([]);
    expect(acked.items.map((x) => x.id)).toEqual([rec.id]);
  });

  it('a transition of a missing exception is refused and writes no audit event', async () => {
    const ghost = exceptionRecord('ghost');
    expect(
      await stores.exceptions.transition(
        { ...ghost, status: 'resolved' },
        'open',
        audit('ghost', 'exception', ghost.id),
        recorded('exception.status_changed', ghost),
      ),
    ).toBe(false);
    expect(await stores.exceptions.get('ghost', ghost.id)).toBeUndefined();
    expect(await auditOf('ghost')).toEqual([]);
  });
});

describe('status changes through the domain', () => {
  it('open -> acknowledged -> resolved sets updated_at and resolved_at, one audit event each', async () => {
    const e = await createException(deps(), actor, 'flow', input());
    const acked = await changeExceptionStatus(deps(), actor, 'flow', e.id, {
      status: 'acknowledged',
      note: 'seen',
    });
    expect(acked.resolved_at).toBeNull();
    const resolved = await changeExceptionStatus(deps(), actor, 'flow', e.id, { status: 'resolved' });
    expect(resolved.resolved_at).toEqual(expect.any(String));
    expect(resolved.updated_at).toBe(resolved.resolved_at);
    expect(await getException(deps(), 'flow', e.id)).toEqual(resolved);
    const events = await auditOf('flow', e.id);
    expect(events.map((a) => a.event_type)).toEqual([
      'exception.status_changed',
      'exception.status_changed',
      'exception.created',
    ]);
    expect(JSON.parse(events[1]!.metadata_json!)).toEqual({ from: 'open', to: 'acknowledged', note: 'seen' });
    expect(events.map((a) => a.summary).slice(0, 2)).toEqual([
      'acknowledged -> resolved',
      'open -> acknowledged',
    ]);
  });

  it('a refused transition throws InvalidTransitionError and writes no audit event', async () => {
    const e = await createException(deps(), actor, 'refused', input());
    await changeExceptionStatus(deps(), actor, 'refused', e.id, { status: 'resolved' });
    const before = await auditOf('refused', e.id);
    await expect(
      changeExceptionStatus(deps(), actor, 'refused', e.id, { status: 'acknowledged' }),
    ).rejects.toThrow(
      new InvalidTransitionError('An exception that is resolved cannot become acknowledged.'),
    );
    await expect(
      changeExceptionStatus(deps(), actor, 'refused', e.id, { status: 'resolved' }),
    ).rejects.toThrow(InvalidTransitionError);
    expect(await auditOf('refused', e.id)).toEqual(before);
    await expect(
      changeExceptionStatus(deps(), actor, 'refused', 'no-such-id', { status: 'resolved' }),
    ).rejects.toThrow(NotFoundError);
  });

  it('the race: two concurrent acknowledged -> resolved, exactly one wins with one audit event', async () => {
    for (let round = 0; round < 3; round++) {
      const e = await createException(deps(), actor, 'race', input());
      await changeExceptionStatus(deps(), actor, 'race', e.id, { status: 'acknowledged' });
      const results = await Promise.allSettled([
        changeExceptionStatus(deps(), principal('a'), 'race', e.id, { status: 'resolved', note: 'by a' }),
        changeExceptionStatus(deps(), principal('b'), 'race', e.id, { status: 'resolved', note: 'by b' }),
      ]);
      const won = results.filter((r) => r.status === 'fulfilled');
      const lost = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
      expect(won).toHaveLength(1);
      expect(lost).toHaveLength(1);
      // The loser reads the winner's status (a refused move) or loses the conditional write.
      expect(lost[0]!.reason).toBeInstanceOf(InvalidTransitionError);
      expect([
        'The exception changed meanwhile; read it again.',
        expect.stringMatching(/^An? exception that is \w+ cannot become \w+\.$/),
      ]).toContainEqual((lost[0]!.reason as Error).message);
      const resolvedEvents = (await auditOf('race', e.id)).filter(
        (a) => a.event_type === 'exception.status_changed' && JSON.parse(a.metadata_json!).to === 'resolved',
      );
      expect(resolvedEvents).toHaveLength(1);
      const winner = (won[0] as PromiseFulfilledResult<{ resolved_at: string | null }>).value;
      expect((await getException(deps(), 'race', e.id)).resolved_at).toBe(winner.resolved_at);
    }
  });
});

describe('listing and cursors', () => {
  const T = 'lists';
  beforeAll(async () => {
    // 12 exceptions: severity cycles info/warning/critical, subject alternates INV-A/INV-B,
    // the last 4 created are acknowledged.
    for (let i = 0; i < 12; i++) {
      const e = await createException(deps(), actor, T, {
        ...input({
          severity: (['info', 'warning', 'critical'] as const)[i % 3],
          subject_id: i % 2 ? 'INV-B' : 'INV-A',
          subject_type: i < 10 ? 'invoice' : 'order',
          title: `E${i}`,
        }),
      });
      if (i >= 8) await changeExceptionStatus(deps(), actor, T, e.id, { status: 'acknowledged' });
    }
  });

  const all = (filter: Parameters<typeof listExceptions>[2], limit = 5) =>
    drain((cursor) => listExceptions(deps(), T, filter, { limit, cursor }));

  it('pages through all exceptions newest first without duplicates', async () => {
    const first = await listExceptions(deps(), T, {}, { limit: 5 });
    expect(first.items).toHaveLength(5);
    expect(first.next_cursor).toEqual(expect.any(String));
    const items = await all({});
    expect(items.map((e) => e.title)).toEqual(Array.from({ length: 12 }, (_, i) => `E${11 - i}`));
  });

  it('filters by status, severity, subject and their combinations, across pages', async () => {
    const titles = async (f: Parameters<typeof listExceptions>[2]) => (await all(f, 2)).map((e) => e.title);
    expect(await titles({ status: 'acknowledged' })).toEqual(['E11', 'E10', 'E9', 'E8']);
    expect(await titles({ status: 'open', severity: 'critical' })).toEqual(['E5', 'E2']);
    expect(await titles({ severity: 'info' })).toEqual(['E9', 'E6', 'E3', 'E0']);
    expect(await titles({ subject_type: 'invoice', subject_id: 'INV-B' })).toEqual([
      'E9',
      'E7',
      'E5',
      'E3',
      'E1',
    ]);
    expect(await titles({ subject_type: 'invoice', subject_id: 'INV-B', status: 'acknowledged' })).toEqual([
      'E9',
    ]);
    expect(await titles({ subject_type: 'order' })).toEqual(['E11', 'E10']);
    expect(await titles({ subject_type: 'order', status: 'open' })).toEqual([]);
  });

  it('a cursor is refused for another tenant or another filter', async () => {
    const page = await listExceptions(deps(), T, { status: 'open' }, { limit: 2 });
    const cursor = page.next_cursor!;
    expect(cursor).toEqual(expect.any(String));
    await expect(
      listExceptions(deps(), 'other', { status: 'open' }, { limit: 2, cursor }),
    ).rejects.toMatchObject({
      code: 'invalid_cursor',
    });
    await expect(
      listExceptions(deps(), T, { status: 'acknowledged' }, { limit: 2, cursor }),
    ).rejects.toMatchObject({ code: 'invalid_cursor' });
    await expect(listExceptions(deps(), T, {}, { limit: 2, cursor })).rejects.toMatchObject({
      code: 'invalid_cursor',
    });
    await expect(stores.audit.list(T, {}, { limit: 2, cursor })).rejects.toMatchObject({
      code: 'invalid_cursor',
    });
    // The same cursor with the same scope (and another limit) still works: the first page was
    // E7 and E6 (status is the index's key), this one goes on from E6.
    expect(page.items.map((e) => e.title)).toEqual(['E7', 'E6']);
    const next = await listExceptions(deps(), T, { status: 'open' }, { limit: 3, cursor });
    expect(next.items.map((e) => e.title)).toEqual(['E5', 'E4', 'E3']);
  });
});

describe('exception lists at any size (docs/api.md section 4)', () => {
  const T = 'history';
  let open: string[];
  beforeAll(async () => {
    // The open ones first: the 300 resolved ones are newer, between them and the first page.
    const opened = Array.from({ length: 3 }, () => exceptionRecord(T, { severity: 'critical' }));
    const resolved = Array.from({ length: 300 }, () =>
      exception.item(exceptionRecord(T, { status: 'resolved', severity: 'info' })),
    );
    open = opened.map((e) => e.id).reverse();
    await loadItems(db, [...opened.map((e) => exception.item(e)), ...resolved]);
  });

  it('3 open among 300 resolved: the first page holds the 3, no cursor, one Query that reads only them', async () => {
    const counted = countingQueries(db);
    const page = await exceptionStore(counted.db).list(T, { status: 'open' }, { limit: 20 });
    expect(page.items.map((e) => e.id)).toEqual(open);
    expect(page.next_cursor).toBeNull();
    expect(counted.queries).toEqual([{ scanned: 3, index: 'gsi1' }]);
  });

  it('a filter beside the key fills the page by reading on, and its cursor resumes after the last item', async () => {
    const page = await exceptionStore(db).list(T, { severity: 'critical' }, { limit: 2 });
    expect(page.items.map((e) => e.id)).toEqual(open.slice(0, 2));
    const rest = await exceptionStore(db).list(
      T,
      { severity: 'critical' },
      { limit: 2, cursor: page.next_cursor! },
    );
    expect(rest.items.map((e) => e.id)).toEqual(open.slice(2));
    expect(rest.next_cursor).toBeNull();
  });
});

describe('the type filter at any size (docs/api.md section 4)', () => {
  const T = 'type-history';
  const TYPE = 'payment.amount_mismatch';
  let mine: string[];
  beforeAll(async () => {
    // Three of the type first (one acknowledged), then 300 newer exceptions of other types
    // between them and the first page.
    const ofType = [
      exceptionRecord(T, { exception_type: TYPE }),
      exceptionRecord(T, { exception_type: TYPE, status: 'acknowledged' }),
      exceptionRecord(T, { exception_type: TYPE, severity: 'critical' }),
    ];
    const others = Array.from({ length: 300 }, (_, i) =>
      exception.item(
        exceptionRecord(T, {
          exception_type: i % 2 ? 'invoice.overdue' : 'payment.late',
          // Some acknowledged: type beside status must narrow the status index to the type.
          status: i % 3 ? 'open' : 'acknowledged',
        }),
      ),
    );
    mine = ofType.map((e) => e.id).reverse();
    await loadItems(db, [...ofType.map((e) => exception.item(e)), ...others]);
  });

  it('3 of a type among 300 of others: the first page holds the 3, no cursor, one Query that reads only them', async () => {
    const counted = countingQueries(db);
    const page = await exceptionStore(counted.db).list(T, { type: TYPE }, { limit: 20 });
    expect(page.items.map((e) => e.id)).toEqual(mine);
    expect(page.items.every((e) => e.exception_type === TYPE)).toBe(true);
    expect(page.next_cursor).toBeNull();
    expect(counted.queries).toEqual([{ scanned: 3, index: 'gsi3' }]);
  });

  it('pages through a type; with status the status index answers and the type filters it', async () => {
    const ids = async (filter: Parameters<typeof listExceptions>[2]) =>
      (await drain((cursor) => listExceptions(deps(), T, filter, { limit: 1, cursor }))).map((e) => e.id);
    expect(await ids({ type: TYPE })).toEqual(mine);
    expect(await ids({ type: TYPE, status: 'acknowledged' })).toEqual([mine[1]]);
    expect(await ids({ type: TYPE, severity: 'critical' })).toEqual([mine[0]]);
    expect(await ids({ type: TYPE, subject_type: 'invoice', subject_id: 'INV-1' })).toEqual(mine);
    expect(await ids({ type: 'nothing.of.this' })).toEqual([]);
    // A cursor of one type is refused for another.
    const page = await listExceptions(deps(), T, { type: TYPE }, { limit: 1 });
    await expect(
      listExceptions(deps(), T, { type: 'payment.late' }, { limit: 1, cursor: page.next_cursor! }),
    ).rejects.toMatchObject({ code: 'invalid_cursor' });
  });

  it('an exception written before the type index is listed by type once backfilled', async () => {
    const legacy = exceptionRecord('type-legacy', { exception_type: TYPE });
    const { gsi3pk: _pk, gsi3sk: _sk, ...item } = exception.item(legacy);
    await loadItems(db, [item]);
    expect(await listExceptions(deps(), 'type-legacy', { type: TYPE }, { limit: 5 })).toMatchObject({
      items: [],
    });
    expect(await backfillIndexKeys(db)).toBe(1);
    expect(await backfillIndexKeys(db)).toBe(0);
    const page = await listExceptions(deps(), 'type-legacy', { type: TYPE }, { limit: 5 });
    expect(page.items.map((e) => e.id)).toEqual([legacy.id]);
    // Its status entry was already there and stays as it was.
    expect(
      (await listExceptions(deps(), 'type-legacy', { status: 'open' }, { limit: 5 })).items,
    ).toHaveLength(1);
  });
});

describe('audit store', () => {
  it('lists newest first, by entity and by entity type, with scoped cursors', async () => {
    const T = 'audit-t';
    const ids = ['x1', 'x2'];
    const written = [];
    for (let i = 0; i < 6; i++) {
      const a = audit(T, i < 4 ? 'exception' : 'member', ids[i % 2]);
      const rec = exceptionRecord(T);
      await stores.exceptions.create(rec, a, recorded('exception.created', rec)).catch(() => undefined);
      written.push(a);
    }
    const everything = await drain((cursor) => stores.audit.list(T, {}, { limit: 4, cursor }));
    expect(everything.map((a) => a.id)).toEqual(written.map((a) => a.id).reverse());
    expect(everything[0]).toEqual(written.at(-1));

    const byType = await drain((cursor) =>
      stores.audit.list(T, { entity_type: 'exception' }, { limit: 1, cursor }),
    );
    expect(byType.map((a) => a.id)).toEqual(
      written
        .slice(0, 4)
        .map((a) => a.id)
        .reverse(),
    );
    const byEntity = await drain((cursor) =>
      stores.audit.list(T, { entity_type: 'exception', entity_id: 'x1' }, { limit: 1, cursor }),
    );
    expect(byEntity.map((a) => a.id)).toEqual([written[2]!.id, written[0]!.id]);

    const page = await stores.audit.list(T, { entity_type: 'exception' }, { limit: 1 });
    await expect(
      stores.audit.list(T, { entity_type: 'member' }, { limit: 1, cursor: page.next_cursor! }),
    ).rejects.toMatchObject({ code: 'invalid_cursor' });
    await expect(
      stores.audit.list('other', { entity_type: 'exception' }, { limit: 1, cursor: page.next_cursor! }),
    ).rejects.toMatchObject({ code: 'invalid_cursor' });
  });
});

describe('fault injection (aws-sdk-client-mock, faults only)', () => {
  const faultyDb = (): { db: Db; restore: () => void } => {
    const doc = documentClient(localClient(dynamoEndpoint()));
    const mock = mockClient(doc);
    mock.on(TransactWriteCommand).rejects(
      new TransactionCanceledException({
        message:
          'Transaction cancelled, please refer cancellation reasons for specific reasons [ThrottlingError, None]',
        $metadata: {},
        CancellationReasons: [{ Code: 'ThrottlingError' }, { Code: 'None' }],
      }),
    );
    return { db: { ...db, doc }, restore: () => mock.restore() };
  };

  it('a cancellation with non-condition reasons propagates instead of reading as a lost race', async () => {
    const { db: faulty, restore } = faultyDb();
    try {
      const rec = exceptionRecord('fault');
      await stores.exceptions.create(
        rec,
        audit('fault', 'exception', rec.id),
        recorded('exception.created', rec),
      );
      const store = exceptionStore(faulty);
      await expect(
        store.transition(
          { ...rec, status: 'resolved' },
          'open',
          audit('fault', 'exception', rec.id),
          recorded('exception.status_changed', rec),
        ),
      ).rejects.toBeInstanceOf(TransactionCanceledException);
      await expect(
        // Reads from the real table, the conditional write through the faulty client.
        changeExceptionStatus(
          { exceptions: { ...stores.exceptions, transition: store.transition }, clock: systemClock },
          actor,
          'fault',
          rec.id,
          {
            status: 'resolved',
          },
        ),
      ).rejects.toBeInstanceOf(TransactionCanceledException);
      expect((await stores.exceptions.get('fault', rec.id))?.status).toBe('open');
    } finally {
      restore();
    }
  });

  it('transact reports condition failures by position, with a conflict beside them too, and propagates other reasons', async () => {
    const doc = documentClient(localClient(dynamoEndpoint()));
    const mock = mockClient(doc);
    try {
      mock.on(TransactWriteCommand).rejects(
        new TransactionCanceledException({
          message: 'cancelled',
          $metadata: {},
          CancellationReasons: [{ Code: 'None' }, { Code: 'ConditionalCheckFailed' }],
        }),
      );
      const ops = [
        { Put: { Item: exception.key({ tenant_id: 'f', id: '1' }) } },
        { Put: { Item: exception.key({ tenant_id: 'f', id: '2' }) } },
      ];
      expect(await transact({ ...db, doc }, ops)).toEqual({ ok: false, failed: [1] });
      mock.reset();
      // A condition that failed is the answer, whatever else the transaction met: no retry.
      mock.on(TransactWriteCommand).rejects(
        new TransactionCanceledException({
          message: 'cancelled',
          $metadata: {},
          CancellationReasons: [{ Code: 'ConditionalCheckFailed' }, { Code: 'TransactionConflict' }],
        }),
      );
      expect(await transact({ ...db, doc }, ops)).toEqual({ ok: false, failed: [0] });
      expect(mock.commandCalls(TransactWriteCommand)).toHaveLength(1);
      mock.reset();
      mock.on(TransactWriteCommand).rejects(
        new TransactionCanceledException({
          message: 'cancelled',
          $metadata: {},
          CancellationReasons: [{ Code: 'ConditionalCheckFailed' }, { Code: 'ValidationError' }],
        }),
      );
      await expect(transact({ ...db, doc }, ops)).rejects.toBeInstanceOf(TransactionCanceledException);
    } finally {
      mock.restore();
    }
  });
});
