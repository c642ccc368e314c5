import { timerFireDeps } from '#functions/workers/timers';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '#functions/adapters/dynamo';
import { pendingOlderThan } from '#functions/adapters/outbox';
import type { createStores } from '#functions/adapters/stores';
import { timerStore } from '#functions/adapters/timer-store';
import { changeDocumentStatus, createDocument } from '#shared/domain/documents/use-cases';
import { createTenant, updateTenant } from '#shared/domain/identity/tenants';
import type { OutboxEvent } from '#shared/domain/outbox';
import { type FireDeps, fireTimer, sweepTimers } from '#shared/domain/timers/use-cases';
import { type Clock, newId, systemClock } from '#shared/kernel/ids';
import { EVENT_KINDS } from '#shared/kernel/names';
import { freshDb } from '#tests/support/db';
import { drain, principal } from '#tests/support/fixtures';
import { manualClock } from '#tests/support/moved-clock';

/**
 * `document.overdue` (docs/api.md section 9.7) on DynamoDB Local with a clock the test moves: an
 * invoice that opens arms a `document_due` timer at the end of its `due_on` in the tenant's time
 * zone; the firing writes the occurrence once; a paid or voided invoice's timer is cancelled, and
 * a firing that meets a paid invoice does nothing.
 */

let db: Db;
let stores: ReturnType<typeof createStores>;
const T = 'doc-due-co';
const admin = principal('admin', {}, true);

beforeAll(async () => {
  ({ db, stores } = await freshDb());
  const deps = { identity: stores.identity, tenants: stores.tenants, clock: systemClock };
  await createTenant(deps, admin, { id: T, name: 'Due Co' });
  await updateTenant(deps, admin, T, { timezone: 'Europe/Berlin' });
});

const docDeps = (clock: Clock) => ({ documents: stores.documents, zones: stores.zones, clock });
const fireDeps = (clock: Clock): FireDeps => timerFireDeps(db, clock);

const openInvoice = async (clock: Clock, dueOn: string, documentType: 'invoice' | 'payment' = 'invoice') => {
  const d = await createDocument(docDeps(clock), admin, T, {
    document_type: documentType,
    number: `INV-${newId().slice(-10)}`,
    counterparty: 'Acme',
    currency: 'EUR',
    amount: '100.00',
    issued_on: '2036-01-01',
    due_on: dueOn,
  });
  return changeDocumentStatus(docDeps(clock), admin, T, d.id, { status: 'open' });
};
const timersOf = async (id: string) =>
  (await timerStore(db).list(T, { subject_id: id }, { limit: 10 })).items;
const firingsOf = async (id: string) => {
  const out: OutboxEvent[] = [];
  for await (const e of pendingOlderThan(db, '9999'))
    if (e.kind === EVENT_KINDS.timerFired && e.payload.subject_id === id) out.push(e);
  return out;
};
const overdue = async (id: string) =>
  (
    await drain((cursor) =>
      stores.audit.list(T, { entity_type: 'document', entity_id: id }, { limit: 100, cursor }),
    )
  ).filter((e) => e.event_type === 'document.overdue');
const ruleEvents = async (id: string) => {
  let n = 0;
  for await (const e of pendingOlderThan(db, '9999'))
    if (
      e.kind === EVENT_KINDS.workflowEventRecorded &&
      e.payload.entity_id === id &&
      e.payload.event_type === 'document.overdue'
    )
      n++;
  return n;
};

describe('document.overdue', () => {
  it('an open invoice is due at the end of due_on in the tenant zone, fires once, never early', async () => {
    const clock = manualClock('2036-03-01T00:00:00.000Z');
    const inv = await openInvoice(clock, '2036-03-10');
    // Berlin is UTC+1 in March before the change: 2036-03-11 00:00 local is 2036-03-10 23:00 UTC.
    expect(await timersOf(inv.id)).toEqual([
      expect.objectContaining({
        kind: 'document_due',
        subject_type: 'document',
        due_at: '2036-03-10T23:00:00.000Z',
      }),
    ]);
    clock.set('2036-03-10T22:59:59.999Z');
    expect(
      (await sweepTimers({ timers: timerStore(db), clock })).fired.map((t) => t.subject_id),
    ).not.toContain(inv.id);
    clock.set('2036-03-10T23:00:00.000Z');
    await sweepTimers({ timers: timerStore(db), clock });
    const [firing, ...more] = await firingsOf(inv.id);
    expect(more).toEqual([]);
    expect(await fireTimer(fireDeps(clock), firing!)).toBe('written');
    // The same firing again (a redelivery): nothing twice.
    expect(await fireTimer(fireDeps(clock), firing!)).toBe('duplicate');
    const events = await overdue(inv.id);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ actor_id: null, entity_type: 'document' });
    expect(await ruleEvents(inv.id)).toBe(1);
  });

  it('summer time: the end of due_on is 22:00 UTC', async () => {
    const inv = await openInvoice(manualClock('2036-07-01T00:00:00.000Z'), '2036-07-10');
    expect((await timersOf(inv.id))[0]?.due_at).toBe('2036-07-10T22:00:00.000Z');
  });

  it('paid before its time: the timer is cancelled with the change', async () => {
    const clock = manualClock('2036-04-01T00:00:00.000Z');
    const inv = await openInvoice(clock, '2036-04-10');
    expect(await timersOf(inv.id)).toHaveLength(1);
    await changeDocumentStatus(docDeps(clock), admin, T, inv.id, { status: 'paid' });
    expect(await timersOf(inv.id)).toEqual([]);
  });

  it('stale: a firing that meets a paid invoice does nothing', async () => {
    const clock = manualClock('2036-05-01T00:00:00.000Z');
    const inv = await openInvoice(clock, '2036-05-10');
    clock.set('2036-05-11T00:00:00.000Z');
    await sweepTimers({ timers: timerStore(db), clock });
    const [firing] = await firingsOf(inv.id);
    await changeDocumentStatus(docDeps(clock), admin, T, inv.id, { status: 'paid' });
    expect(await fireTimer(fireDeps(clock), firing!)).toBe('stale');
    expect(await overdue(inv.id)).toEqual([]);
  });

  it('payments, drafts and invoices without due_on arm nothing', async () => {
    const clock = manualClock('2036-06-01T00:00:00.000Z');
    const payment = await openInvoice(clock, '2036-06-10', 'payment');
    expect(await timersOf(payment.id)).toEqual([]);
    const draft = await createDocument(docDeps(clock), admin, T, {
      document_type: 'invoice',
      number: `INV-${newId().slice(-10)}`,
      counterparty: 'Acme',
      currency: 'EUR',
      amount: '1.00',
      issued_on: '2036-01-01',
      due_on: '2036-06-10',
    });
    expect(await timersOf(draft.id)).toEqual([]);
  });
});
