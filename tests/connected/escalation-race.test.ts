import { timerFireDeps } from '#functions/workers/timers';
import { beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import type { Db } from '#functions/adapters/dynamo';
import { escalationPolicyStore, memberDirectory } from '#functions/adapters/escalation-policy-store';
import { escalationFireDeps } from '#functions/adapters/escalation-store';
import { exceptionStore } from '#functions/adapters/exception-store';
import { notificationStore } from '#functions/adapters/notification-store';
import { pendingOlderThan } from '#functions/adapters/outbox';
import type { createStores } from '#functions/adapters/stores';
import { timerStore } from '#functions/adapters/timer-store';
import { EscalationPolicyCreate } from '#shared/api/schemas/escalation-policies';
import { createPolicy } from '#shared/domain/escalation/use-cases';
import type { ExceptionStore } from '#shared/domain/exceptions/ports';
import { changeExceptionStatus, createException } from '#shared/domain/exceptions/use-cases';
import type { OutboxEvent } from '#shared/domain/outbox';
import { type FireDeps, fireTimer, sweepTimers } from '#shared/domain/timers/use-cases';
import type { Clock } from '#shared/kernel/ids';
import { EVENT_KINDS } from '#shared/kernel/names';
import { freshDb } from '#tests/support/db';
import { audit, drain, principal, tenant } from '#tests/support/fixtures';

/**
 * A level falling due while the exception is being acknowledged (docs/api.md, "Escalation
 * policies"): the escalation and the acknowledgement each commit whole, in one order or the
 * other, and no notification is ever written after the acknowledgement committed. The first two
 * cases force each interleaving (one side's write lands between the other's read and its write);
 * the third runs both at once, many times.
 */

let db: Db;
let stores: ReturnType<typeof createStores>;
const t = tenant();
const owner = principal('owner-1', { [t.id]: 'owner' });
const clock: Clock = { now: () => new Date('2041-01-01T08:15:00.000Z') };
const created: Clock = { now: () => new Date('2041-01-01T08:00:00.000Z') };

const exceptionDeps = (exceptions: ExceptionStore = stores.exceptions) => ({
  exceptions,
  policies: escalationPolicyStore(db),
  clock,
});
const fireDeps = (over: Partial<NonNullable<FireDeps['escalation']>> = {}): FireDeps => {
  const deps = timerFireDeps(db, clock);
  return { ...deps, escalation: { ...deps.escalation!, ...over } };
};

/** A critical exception created at 08:00 whose level 1 (15 minutes) is due now, claimed by a sweep. */
async function dueException(): Promise<{ id: string; firing: OutboxEvent }> {
  const e = await createException({ ...exceptionDeps(), clock: created }, owner, t.id, {
    exception_type: 'race.case',
    subject_type: 'invoice',
    subject_id: 'INV-7',
    title: 'Payment failed',
    summary: 'The card was declined',
    severity: 'critical',
  });
  await sweepTimers({ timers: timerStore(db), clock });
  for await (const event of pendingOlderThan(db, '9999'))
    if (event.kind === EVENT_KINDS.timerFired && event.payload.subject_id === e.id)
      return { id: e.id, firing: event };
  throw new Error('the level was not claimed');
}

const acknowledge = (id: string, exceptions?: ExceptionStore) =>
  changeExceptionStatus(exceptionDeps(exceptions), owner, t.id, id, { status: 'acknowledged' });

/** What the race left: the exception, its notifications, its escalated events, its pending timers. */
async function outcome(id: string) {
  const exception = await stores.exceptions.get(t.id, id);
  const notifications = (
    await drain((cursor) => notificationStore(db).list(t.id, {}, { limit: 100, cursor }))
  ).filter((n) => JSON.parse(n.metadata_json).exception_id === id);
  const escalated = (
    await drain((cursor) =>
      stores.audit.list(t.id, { entity_type: 'exception', entity_id: id }, { limit: 100, cursor }),
    )
  ).filter((a) => a.event_type === 'exception.escalated');
  const timers = (await timerStore(db).list(t.id, { subject_id: id }, { limit: 10 })).items;
  return { exception, notifications, escalated, timers };
}

/**
 * The invariant: the acknowledgement stands, and nothing of the escalation outlived it. An
 * escalation that committed after it would show on the acknowledged exception (its next level)
 * and leave that level's timer armed; its notifications exist only with its audit event.
 */
function expectAcknowledgedLast(o: Awaited<ReturnType<typeof outcome>>) {
  expect(o.exception?.status).toBe('acknowledged');
  expect(o.exception?.escalation).toBeNull();
  expect(o.timers).toEqual([]);
  expect(o.notifications.length).toBe(o.escalated.length === 1 ? 2 : 0);
  expect(o.escalated.length).toBeLessThanOrEqual(1);
}

beforeAll(async () => {
  ({ db, stores } = await freshDb());
  await stores.tenants.createTenant(t, audit(t.id, 'tenant', t.id));
  await createPolicy(
    { policies: escalationPolicyStore(db), members: memberDirectory(db), clock: created },
    owner,
    t.id,
    z.parse(EscalationPolicyCreate, {
      name: 'Race',
      match: { exception_types: ['race.case'] },
      levels: [
        {
          after_minutes: 15,
          notify: [
            { channel: 'email', recipient: 'oncall@example.test' },
            { channel: 'sms', recipient: '+4915112345678' },
          ],
        },
        { after_minutes: 30, notify: [{ channel: 'email', recipient: 'boss@example.test' }] },
      ],
    }),
  );
});

describe('a level falling due while the exception is acknowledged', () => {
  it('the acknowledgement commits between the firing read and its write: the firing writes nothing', async () => {
    const { id, firing } = await dueException();
    const real = escalationFireDeps(db, clock).escalations;
    let acked = false;
    const result = await fireTimer(
      fireDeps({
        escalations: {
          ...real,
          fireLevel: async (f) => {
            await acknowledge(id);
            acked = true;
            return real.fireLevel(f);
          },
        },
      }),
      firing,
    );
    expect(acked).toBe(true);
    expect(result).toBe('stale');
    const o = await outcome(id);
    expectAcknowledgedLast(o);
    expect(o.notifications).toEqual([]);
  });

  it('the escalation commits between the acknowledgement read and its write: both stand, escalation first', async () => {
    const { id, firing } = await dueException();
    const real = exceptionStore(db);
    let fired: string | undefined;
    await acknowledge(id, {
      ...real,
      transition: async (...args) => {
        fired = await fireTimer(fireDeps(), firing);
        return real.transition(...args);
      },
    });
    expect(fired).toBe('written');
    const o = await outcome(id);
    expectAcknowledgedLast(o);
    expect(o.notifications).toHaveLength(2);
  });

  it('both at once, 12 times: one order or the other, never a notification after the acknowledgement', async () => {
    for (let i = 0; i < 12; i++) {
      const { id, firing } = await dueException();
      const [fired, acked] = await Promise.allSettled([fireTimer(fireDeps(), firing), acknowledge(id)]);
      expect(fired.status).toBe('fulfilled');
      expect(acked.status).toBe('fulfilled');
      expectAcknowledgedLast(await outcome(id));
    }
  });
});
