import type { SQSRecord } from 'aws-lambda';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Db } from '#functions/adapters/dynamo';
import { pendingOlderThan } from '#functions/adapters/outbox';
import type { createStores } from '#functions/adapters/stores';
import { timerStore } from '#functions/adapters/timer-store';
import { timerFireDeps, timerHandlers } from '#functions/workers/timers';
import { changeDocumentStatus, createDocument } from '#shared/domain/documents/use-cases';
import { createTenant, updateTenant } from '#shared/domain/identity/tenants';
import type { OutboxEvent } from '#shared/domain/outbox';
import { createRule, getRule } from '#shared/domain/workflows/use-cases';
import { type Clock, newId, systemClock } from '#shared/kernel/ids';
import { EVENT_KINDS, LOG_EVENTS } from '#shared/kernel/names';
import { freshDb } from '#tests/support/db';
import { principal } from '#tests/support/fixtures';
import { captureLogLines } from '#tests/support/logs';

/**
 * A tenant's time-zone change moves the armed timers computed in its zone (docs/api.md, "Tenant
 * time zone"), through the internal worker: a scheduled rule without its own zone (and its
 * `next_run_at`), an open invoice's `document_due`; a rule with its own zone stays.
 */

let db: Db;
let stores: ReturnType<typeof createStores>;
const admin = principal('admin', {}, true);
const record = { messageId: 'm', attributes: {} } as unknown as SQSRecord;
// A Wednesday in winter: Berlin is UTC+1.
const clock: Clock = { now: () => new Date('2027-01-06T12:00:00.000Z') };

beforeAll(async () => {
  ({ db, stores } = await freshDb());
});
afterEach(() => vi.restoreAllMocks());

const setUp = async () => {
  const T = `rz-${newId().slice(-12)}`;
  await createTenant({ identity: stores.identity, tenants: stores.tenants, clock: systemClock }, admin, {
    id: T,
    name: 'Rezone Co',
  });
  const ruleDeps = { rules: stores.workflowRules, zones: stores.zones, clock };
  const rule = (name: string, timezone?: string) =>
    createRule(ruleDeps, admin, T, {
      name,
      trigger: { schedule: { cron: '0 8 * * 1', ...(timezone && { timezone }) } },
      conditions: [],
      actions: [{ type: 'create_task', title: name }],
      enabled: true,
    });
  const tenantZone = await rule('Monday in the tenant zone');
  const ownZone = await rule('Monday in New York', 'America/New_York');
  const docs = { documents: stores.documents, zones: stores.zones, clock };
  const draft = await createDocument(docs, admin, T, {
    document_type: 'invoice',
    number: `INV-${newId().slice(-10)}`,
    counterparty: 'Acme',
    currency: 'EUR',
    amount: '100.00',
    issued_on: '2027-01-01',
    due_on: '2027-01-20',
  });
  const invoice = await changeDocumentStatus(docs, admin, T, draft.id, { status: 'open' });
  return { T, ruleDeps, tenantZone, ownZone, invoice };
};
const dueOf = async (T: string, id: string) =>
  (await timerStore(db).list(T, { subject_id: id }, { limit: 5 })).items.map((t) => t.due_at);
const zoneEvents = async (T: string) => {
  const out: OutboxEvent[] = [];
  for await (const e of pendingOlderThan(db, '9999'))
    if (e.kind === EVENT_KINDS.tenantTimezoneChanged && e.tenant_id === T) out.push(e);
  return out;
};
const handle = (event: OutboxEvent) =>
  timerHandlers(timerFireDeps(db, clock), db)[EVENT_KINDS.tenantTimezoneChanged]!(event, record);

describe('a tenant time-zone change', () => {
  it('moves the scheduled rule in the tenant zone and the invoice due time; leaves a rule with its own zone', async () => {
    const { T, ruleDeps, tenantZone, ownZone, invoice } = await setUp();
    expect(tenantZone.next_run_at).toBe('2027-01-11T08:00:00.000Z');
    expect(ownZone.next_run_at).toBe('2027-01-11T13:00:00.000Z');
    expect(await dueOf(T, invoice.id)).toEqual(['2027-01-21T00:00:00.000Z']);

    const tenants = { identity: stores.identity, tenants: stores.tenants, clock };
    await updateTenant(tenants, admin, T, { name: 'Rezone Co' });
    expect(await zoneEvents(T)).toEqual([]);
    await updateTenant(tenants, admin, T, { timezone: 'Europe/Berlin' });
    const [event] = await zoneEvents(T);
    expect(event).toMatchObject({ payload: { timezone: 'Europe/Berlin' } });
    const lines = captureLogLines();
    await handle(event!);

    expect((await getRule(ruleDeps, T, tenantZone.id)).next_run_at).toBe('2027-01-11T07:00:00.000Z');
    expect(await dueOf(T, tenantZone.id)).toEqual(['2027-01-11T07:00:00.000Z']);
    expect((await getRule(ruleDeps, T, ownZone.id)).next_run_at).toBe('2027-01-11T13:00:00.000Z');
    expect(await dueOf(T, ownZone.id)).toEqual(['2027-01-11T13:00:00.000Z']);
    expect(await dueOf(T, invoice.id)).toEqual(['2027-01-20T23:00:00.000Z']);

    // Delivered again: nothing left to move, nothing moved twice.
    await handle(event!);
    expect(await dueOf(T, tenantZone.id)).toEqual(['2027-01-11T07:00:00.000Z']);
    expect(await dueOf(T, invoice.id)).toEqual(['2027-01-20T23:00:00.000Z']);
    // The operator's record of each delivery: how many timers it moved (the rule's and the invoice's).
    const logged = {
      level: 'info',
      event: LOG_EVENTS.timersRezoned,
      tenant_id: T,
      timezone: 'Europe/Berlin',
    };
    expect(lines.filter((l) => l.event === LOG_EVENTS.timersRezoned)).toEqual([
      expect.objectContaining({ ...logged, moved: 2 }),
      expect.objectContaining({ ...logged, moved: 0 }),
    ]);
  });

  it('of two quick changes the zone the tenant has last wins, whichever event comes first', async () => {
    const { T, ruleDeps, tenantZone, invoice } = await setUp();
    const tenants = { identity: stores.identity, tenants: stores.tenants, clock };
    await updateTenant(tenants, admin, T, { timezone: 'Europe/Berlin' });
    await updateTenant(tenants, admin, T, { timezone: 'Asia/Tokyo' });
    const events = await zoneEvents(T);
    expect(events).toHaveLength(2);
    for (const e of events.reverse()) await handle(e);
    // 08:00 Tokyo (UTC+9) is 23:00 UTC the day before; the invoice's day ends at 15:00 UTC.
    expect((await getRule(ruleDeps, T, tenantZone.id)).next_run_at).toBe('2027-01-10T23:00:00.000Z');
    expect(await dueOf(T, invoice.id)).toEqual(['2027-01-20T15:00:00.000Z']);
  });
});
